// A game saved with one module version, opened and refreshed in the next (issue 42): opens a
// module, loads a set-up or a saved game, moves, flips and places pieces as a player does,
// saves, and runs VASSAL's own Refresh Counters dialog (File menu) with the options it opens
// with, pressing its Run button, as a player would. Run under Xvfb by tests/vassal/refresh_play.py.
//
// Usage: java RefreshCheck MODULE.vmod SCRIPT   (SCRIPT: one command a line, fields TAB-separated)
//   SETUP  name                    start the predefined set-up (scenario) of that name
//   LOAD   file.vsav               open a saved game (File > Open)
//   SAVE   file.vsav               save the game (File > Save As)
//   MOVE   id  map  x  y           move the piece whose UnitId or MarkerId is id to a point of a map
//   FLIP   id                      press Ctrl+F on it (the flip layer's key)
//   PLACE  slot  map  x  y         a new piece from the palette slot of that name, dropped there
//   REFRESH                        Refresh Counters: OPTION records (each check box as shown),
//                                  then CHAT for each line the chat gained
//   DUMP   prop,prop,...           PIECE map x y location name, then each property's value
//   ECHO   text                    MARK text (to tell the parts of the output apart)
// Output records: LOADED, SETUP, OPTION, CHAT, PIECE, ANSWERED, PROBLEM kind text, DONE count.

import java.awt.Container;
import java.awt.Dialog;
import java.awt.Point;
import java.awt.Window;
import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.swing.AbstractButton;
import javax.swing.JCheckBox;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.GameRefresher;
import VASSAL.build.module.GameState;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.widget.PieceSlot;
import VASSAL.counters.Deck;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;
import VASSAL.tools.ErrorDialog;
import VASSAL.tools.bug.BugHandler;

public class RefreshCheck {
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  static final List<String> problems = new ArrayList<>();
  static final String REFRESH_TITLE = "Refresh Counters";
  static volatile CountDownLatch refreshed;

  static String clean(Object o) {
    return String.valueOf(o).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  static synchronized void problem(String kind, String text) {
    problems.add(kind);
    OUT.println("PROBLEM\t" + kind + "\t" + clean(text));
  }

  static class Catcher extends AppenderBase<ILoggingEvent> {
    @Override
    protected void append(ILoggingEvent e) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
        String t = e.getThrowableProxy() == null ? "" : " | " + e.getThrowableProxy().getMessage();
        problem(e.getLevel().toString(), e.getLoggerName() + ": " + e.getFormattedMessage() + t);
      }
    }
  }

  /** Answers modal dialogs: the refresher's with its Run button, as the player left its check
   * boxes; any other (the side a player takes on opening a game) as WizardCloser does. */
  static void answerDialogs() {
    Map<Window, Boolean> seen = Collections.synchronizedMap(new IdentityHashMap<>());
    Thread t = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(100);
        }
        catch (InterruptedException e) {
          return;
        }
        for (Window w : Window.getWindows()) {
          if (w instanceof Dialog && w.isShowing() && ((Dialog) w).isModal() && seen.put(w, true) == null) {
            Dialog d = (Dialog) w;
            if (REFRESH_TITLE.equals(d.getTitle())) {
              SwingUtilities.invokeLater(() -> run(d));
            }
            else {
              SwingUtilities.invokeLater(() -> WizardCloser.answer(d, line -> OUT.println("ANSWERED\t" + line)));
            }
          }
        }
      }
    }, "dialog-answerer");
    t.setDaemon(true);
    t.start();
  }

  static void run(Dialog d) {
    AbstractButton go = null;
    for (java.awt.Component k : WizardCloser.all(d)) {
      if (k instanceof JCheckBox && k.isVisible()) {
        JCheckBox box = (JCheckBox) k;
        OUT.println("OPTION\t" + clean(box.getText().replaceAll("<[^>]+>", "")) + "\t" + box.isSelected());
      }
      else if (k instanceof AbstractButton && "Run".equals(((AbstractButton) k).getText())) {
        go = (AbstractButton) k;
      }
    }
    if (go == null) {
      problem("NORUN", "the refresh dialog has no Run button");
      d.setVisible(false);
      return;
    }
    go.doClick();
  }

  public static void main(String[] args) throws Exception {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    Catcher catcher = new Catcher();
    catcher.setContext(ctx);
    catcher.start();
    ctx.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(catcher);
    Thread.setDefaultUncaughtExceptionHandler((th, ex) -> problem("UNCAUGHT", ex.toString()));
    answerDialogs();
    ErrorDialog.addBugHandler(new BugHandler() {
      public boolean accept(Throwable t) { return true; }
      public void handle(Throwable t) { problem("BUG", t.toString()); }
    });
    final String module = args[0];
    final List<String> script = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
    SwingUtilities.invokeAndWait(() -> {
      try {
        Info.setConfig(new StandardConfig());
        Class<?> mm = Class.forName("VASSAL.launch.Player$PlayerMenuManager");
        Constructor<?> c = mm.getDeclaredConstructor();
        c.setAccessible(true);
        c.newInstance();
        GameModule.init(new GameModule(new DataArchive(module)));
        GameModule.getGameModule().getPlayerWindow().setSize(1280, 1000);
        GameModule.getGameModule().getPlayerWindow().setVisible(true);
        OUT.println("LOADED\t" + clean(GameModule.getGameModule().getGameName()) + "\t"
          + clean(GameModule.getGameModule().getGameVersion()));
      }
      catch (Throwable t) {
        problem("LOADFAIL", t.toString());
      }
    });
    if (GameModule.getGameModule() != null) {
      for (String line : script) {
        final String[] f = line.split("\t", -1);
        if ("REFRESH".equals(f[0])) {
          refresh();
          continue;
        }
        SwingUtilities.invokeAndWait(() -> {
          try {
            command(f);
          }
          catch (Throwable t) {
            problem("EXCEPTION", f[0] + ": " + t);
            t.printStackTrace();
          }
        });
      }
    }
    OUT.println("DONE\t" + problems.size());
    OUT.flush();
    Runtime.getRuntime().halt(0);
  }

  /** File > Refresh Counters, as the menu item does it; the dialog is answered (run above). */
  static void refresh() throws Exception {
    final int[] before = new int[1];
    SwingUtilities.invokeAndWait(() -> before[0] = chatText().length());
    final javax.swing.Action[] action = new javax.swing.Action[1];
    SwingUtilities.invokeAndWait(() -> {
      for (GameComponent g : GameModule.getGameModule().getGameState().getGameComponents()) {
        if (g instanceof GameRefresher) {
          action[0] = ((GameRefresher) g).getRefreshAction();
        }
      }
    });
    if (action[0] == null || !action[0].isEnabled()) {
      problem("NOREFRESH", action[0] == null ? "no Refresh Counters action" : "Refresh Counters is disabled");
      return;
    }
    // the modal dialog blocks the event it opens from: run it and wait on this thread
    SwingUtilities.invokeAndWait(() -> action[0].actionPerformed(
      new java.awt.event.ActionEvent(GameModule.getGameModule().getPlayerWindow(), 0, REFRESH_TITLE)));
    SwingUtilities.invokeAndWait(() -> chatSince(before[0]));
  }

  static VASSAL.build.module.Map map(String name) {
    for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      if (name.equals(m.getMapName())) {
        return m;
      }
    }
    problem("NOMAP", name);
    return null;
  }

  static void command(String[] f) throws Exception {
    GameModule gm = GameModule.getGameModule();
    GameState gs = gm.getGameState();
    switch (f[0]) {
      case "SETUP": {
        for (PredefinedSetup s : gm.getAllDescendantComponentsOf(PredefinedSetup.class)) {
          if (f[1].equals(s.getConfigureName())) {
            gs.setup(false);
            gs.loadGameInForeground(s.getFileName(), s.getSavedGameContents());
            OUT.println("SETUP\t" + clean(f[1]) + "\t" + gs.getAllPieces().size());
            return;
          }
        }
        problem("NOSETUP", f[1]);
        return;
      }
      case "LOAD": {
        int before = chatText().length();
        gs.setup(false);
        gs.loadGameInForeground(new File(f[1]));
        chatSince(before);
        return;
      }
      case "ECHO": {
        OUT.println("MARK\t" + clean(f[1]));
        return;
      }
      case "SAVE": {
        gs.saveGame(new File(f[1]));
        return;
      }
      case "MOVE": {
        GamePiece p = find(f[1]);
        VASSAL.build.module.Map to = map(f[2]);
        if (p == null || to == null) {
          return;
        }
        to.placeOrMerge(p, new Point(Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        return;
      }
      case "FLIP": {
        GamePiece p = find(f[1]);
        if (p != null) {
          p.keyEvent(KeyStroke.getKeyStroke(70, java.awt.event.InputEvent.CTRL_DOWN_MASK | java.awt.event.InputEvent.CTRL_MASK));
        }
        return;
      }
      case "PLACE": {
        PieceSlot slot = null;
        for (PieceSlot s : gm.getAllDescendantComponentsOf(PieceSlot.class)) {
          if (f[1].equals(s.getConfigureName()) && slot == null) {
            slot = s;
          }
        }
        VASSAL.build.module.Map to = map(f[2]);
        if (slot == null || to == null) {
          problem("NOSLOT", f[1]);
          return;
        }
        // as a drag from the palette makes it (PieceSlot's drag: a clone carrying the slot's id)
        GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
        p.setProperty("PieceId", slot.getGpId());
        gs.addPiece(p);
        to.placeOrMerge(p, new Point(Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        return;
      }
      case "DUMP": {
        String[] props = f[1].split(",");
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
          for (GamePiece top : m.getPieces()) {
            if (top instanceof Deck) {
              OUT.println("DECK\t" + clean(((Deck) top).getDeckName()) + "\t" + ((Deck) top).getPieceCount());
              continue;
            }
            for (GamePiece q : top instanceof Stack ? ((Stack) top).asList() : List.of(top)) {
              StringBuilder sb = new StringBuilder("PIECE\t" + clean(m.getMapName()) + "\t"
                + q.getPosition().x + "\t" + q.getPosition().y + "\t"
                + clean(q.getProperty("LocationName")) + "\t" + clean(q.getName()));
              for (String name : props) {
                Object v = q.getProperty(name);
                sb.append("\t").append(v == null ? "" : clean(v));
              }
              OUT.println(sb);
            }
          }
        }
        return;
      }
      default:
        problem("BADCOMMAND", f[0]);
    }
  }

  static GamePiece find(String id) {
    for (GamePiece p : GameModule.getGameModule().getGameState().getAllPieces()) {
      for (GamePiece q : p instanceof Stack ? ((Stack) p).asList() : List.of(p)) {
        if (id.equals(q.getProperty("UnitId")) || id.equals(q.getProperty("MarkerId"))) {
          return q;
        }
      }
    }
    problem("NOPIECE", id);
    return null;
  }

  /** The chat window's text, as a player reads it. */
  static String chatText() {
    for (java.awt.Component k : WizardCloser.all(GameModule.getGameModule().getChatter())) {
      if (k instanceof javax.swing.text.JTextComponent) {
        javax.swing.text.Document d = ((javax.swing.text.JTextComponent) k).getDocument();
        try {
          return d.getText(0, d.getLength());
        }
        catch (javax.swing.text.BadLocationException e) {
          return "";
        }
      }
    }
    return "";
  }

  /** CHAT records for the lines the chat gained since it was `before` characters long. */
  static void chatSince(int before) {
    String all = chatText();
    for (String line : all.substring(Math.min(before, all.length())).split("\n")) {
      if (!line.isBlank()) {
        OUT.println("CHAT\t" + clean(line.strip()));
      }
    }
  }
}
