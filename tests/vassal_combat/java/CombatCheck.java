// Plays a battle in a real VASSAL engine: opens a module, loads a scenario set-up, drops combat
// markers from the palette onto units' stacks, sets a marker's options, presses Resolve (Ctrl+R)
// and prints the chat lines the engine writes. Run under Xvfb by tests/vassal_combat/engine.py.
//
// Usage: java CombatCheck MODULE.vmod SCRIPT   (SCRIPT: one command a line, fields TAB-separated)
//   SETUP  name                      load a predefined set-up (scenario)
//   MOVE   unit-id  location  x  y  move the unit standing in location to a point of its map
//   DROP   tag  slot-name  unit-id  location
//                                    a new piece from the palette slot, merged into the stack of
//                                    the unit standing in location (several counters share an id)
//   SET    tag  property  value      set a (dynamic) property of a dropped piece
//   KEY    tag  keycode  modifiers   press a key on a dropped piece; prints CHAT lines it reports
//   MENU   tag  text                 choose a command of the piece's right-click menu
//   PROPS  tag  name,name,...        print PROP<TAB>tag<TAB>name<TAB>value for each property
//   CALCS  tag                       evaluate every calculated property of a dropped piece as
//                                    its trait does; a PROBLEM CALCERR names each that fails
//   SHOT   tag  file.png             show the player window centred on a dropped piece and save
//                                    a picture of it (map and chat log), for looking at by eye
//   NEXT   n / PREV n                step the turn tracker n times forward / back (as its
//                                    buttons do: global hotkeys fire; the player window is
//                                    shown first, as SHOW does); prints TURN Turn Phase,
//                                    then CHAT for each line the chat gained
//   NEWGAME                          start a new game with no set-up (File > New Game)
//   RELOAD                           save the game as it stands and load it again (what a
//                                    saved game holds: GameState.getRestoreCommand)
//   TRACKER                          print TRACKER Turn Phase shown: the global properties
//                                    and the text the turn tracker shows (its label)
//   WHERE  unit-id,unit-id,...       print AT unit-id map location for each unit
//   BUTTON text                      press the toolbar button (or menu item) with that text
//   FIRE   key                       fire a global key ('code,modifiers[,name]')
//   SHOW                             show the player window (toolbar buttons answer hotkeys)
//   LOS    x1 y1 x2 y2               drag the main map's line-of-sight thread; prints CHAT
// Output records: LOADED, SETUP, DROPPED tag location, CHAT text, PROP ..., PROBLEM kind text,
// DONE count-of-problems.

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.swing.KeyStroke;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameState;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.Command;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Stack;

public class CombatCheck {
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  static final List<String> problems = new ArrayList<>();
  static final Map<String, GamePiece> dropped = new HashMap<>();

  static String clean(Object o) {
    return String.valueOf(o).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  static synchronized void problem(String kind, String text) {
    problems.add(kind);
    OUT.println("PROBLEM\t" + kind + "\t" + clean(text));
  }

  /** A one-shot run: a JVM for this one script (tests/vassal_combat/engine.py runs scripts in a
   *  long-lived EngineServer instead, one per module). */
  public static void main(String[] args) throws Exception {
    EngineServer.oneShot(CombatCheck.class, args[0],
      Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8));
  }

  static int chatAtStart;

  /** A script begins: nothing dropped yet, no problem yet; LOADED (or why the module failed). */
  static void begin(String loadError) {
    problems.clear();
    dropped.clear();
    if (loadError != null) {
      problem("LOADFAIL", loadError);
      return;
    }
    chatAtStart = chatLength();
    OUT.println("LOADED\t" + clean(GameModule.getGameModule().getGameName()) + "\t"
      + clean(Info.getVersion()));
  }

  static void end() {
    OUT.println("DONE\t" + problems.size());
    OUT.flush();
  }

  static void run(String[] f) throws Exception {
    GameModule gm = GameModule.getGameModule();
    GameState gs = gm.getGameState();
    switch (f[0]) {
      case "SETUP": {
        gs.setup(false);
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
      case "MOVE": {
        GamePiece unit = findUnit(f[1], f[2]);
        if (unit == null) {
          problem("NOUNIT", f[1] + " in " + f[2]);
          return;
        }
        unit.getMap().placeOrMerge(unit, new java.awt.Point(Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        OUT.println("MOVED\t" + f[1] + "\t" + clean(unit.getProperty("LocationName")));
        return;
      }
      case "SEND": {  // a unit to a point of another map: SEND id location mapName x y
        GamePiece unit = findUnit(f[1], f[2]);
        VASSAL.build.module.Map to = VASSAL.build.module.Map.getMapById(f[3]);
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
          if (f[3].equals(m.getMapName())) {
            to = m;
          }
        }
        if (unit == null || to == null) {
          problem("NOUNIT", f[1] + " in " + f[2] + " to " + f[3]);
          return;
        }
        to.placeOrMerge(unit, new java.awt.Point(Integer.parseInt(f[4]), Integer.parseInt(f[5])));
        OUT.println("MOVED\t" + f[1] + "\t" + clean(unit.getProperty("LocationName")));
        return;
      }
      case "DROP": {
        GamePiece unit = findUnit(f[3], f[4]);
        PieceSlot slot = null;
        for (PieceSlot s : gm.getAllDescendantComponentsOf(PieceSlot.class)) {
          if (f[2].equals(s.getConfigureName())) {
            slot = s;
          }
        }
        if (unit == null || slot == null) {
          problem("NODROP", f[2] + " on " + f[3] + (unit == null ? " (no such unit)" : " (no such slot)"));
          return;
        }
        GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
        gs.addPiece(p);
        unit.getMap().placeOrMerge(p, unit.getPosition());
        dropped.put(f[1], p);
        Stack st = p.getParent();
        OUT.println("DROPPED\t" + f[1] + "\t" + clean(p.getProperty("LocationName")) + "\t"
          + (st == null ? 1 : st.getPieceCount()));
        return;
      }
      case "SET": {
        dropped.get(f[1]).setProperty(f[2], f[3]);
        return;
      }
      case "KEY": {
        GamePiece p = dropped.get(f[1]);
        Command c = p.keyEvent(KeyStroke.getKeyStroke(Integer.parseInt(f[2]), Integer.parseInt(f[3])));
        chat(c);
        return;
      }
      case "PICK": {  // a unit on the board, for KEY and MENU: PICK label unitId location
        GamePiece unit = findUnit(f[2], f[3]);
        if (unit == null) {
          problem("NOUNIT", f[2] + " in " + f[3]);
          return;
        }
        dropped.put(f[1], unit);
        return;
      }
      case "MENU": {
        GamePiece p = dropped.get(f[1]);
        Object cmds = p.getProperty(VASSAL.counters.Properties.KEY_COMMANDS);
        for (VASSAL.counters.KeyCommand k : (VASSAL.counters.KeyCommand[]) cmds) {
          if (f[2].equals(k.getName())) {
            chat(p.keyEvent(k.getKeyStroke()));
            OUT.println("MENUDONE\t" + f[1] + "\t" + clean(f[2]));
            return;
          }
        }
        problem("NOMENU", f[2]);
        return;
      }
      case "SHOT": {
        GamePiece p = dropped.get(f[1]);
        javax.swing.JFrame frame = gm.getPlayerWindow();
        frame.setSize(1280, 1000);
        frame.setVisible(true);
        p.getMap().centerAt(p.getPosition());
        frame.validate();
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(
          frame.getWidth(), frame.getHeight(), java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        frame.paint(g);
        g.dispose();
        javax.imageio.ImageIO.write(img, "png", new java.io.File(f[2]));
        OUT.println("SHOT\t" + f[2]);
        return;
      }
      case "NEXT":
      case "PREV": {
        VASSAL.build.module.turn.TurnTracker tt =
          gm.getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnTracker.class).iterator().next();
        java.lang.reflect.Method step =
          VASSAL.build.module.turn.TurnTracker.class.getDeclaredMethod("NEXT".equals(f[0]) ? "next" : "prev");
        step.setAccessible(true);
        if (!gm.getPlayerWindow().isVisible()) {  // the tracker's buttons are on screen, and the
          gm.getPlayerWindow().setSize(1280, 1000);  // toolbar buttons its hotkeys press answer
          gm.getPlayerWindow().setVisible(true);     // only then (3.7.26 LaunchButton)
        }
        for (int i = 0; i < Integer.parseInt(f[1]); i++) {
          int before = chatLength();
          step.invoke(tt);
          OUT.println("TURN\t" + clean(gm.getProperty("Turn")) + "\t" + clean(gm.getProperty("Phase")));
          chatSince(before);
        }
        return;
      }
      case "NEWGAME": {
        gs.setup(false);
        gs.setup(true);
        OUT.println("NEWGAME");
        return;
      }
      case "RELOAD": {
        String saved = gm.encode(gs.getRestoreCommand());
        gs.setup(false);
        gm.decode(saved).execute();
        OUT.println("RELOADED\t" + gs.isGameStarted());
        return;
      }
      case "TRACKER": {
        VASSAL.build.module.turn.TurnTracker tt =
          gm.getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnTracker.class).iterator().next();
        java.lang.reflect.Field w = VASSAL.build.module.turn.TurnTracker.class.getDeclaredField("turnWidget");
        w.setAccessible(true);
        java.lang.reflect.Field l = w.get(tt).getClass().getDeclaredField("turnLabel");
        l.setAccessible(true);
        OUT.println("TRACKER\t" + clean(gm.getProperty("Turn")) + "\t" + clean(gm.getProperty("Phase"))
          + "\t" + clean(((javax.swing.JLabel) l.get(w.get(tt))).getText()));
        return;
      }
      case "WHERE": {
        java.util.Set<GamePiece> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (String id : f[1].split(",")) {
          boolean found = false;
          for (GamePiece p : gs.getAllPieces()) {
            for (GamePiece q : p instanceof Stack ? ((Stack) p).asList() : List.of(p)) {
              if (id.equals(q.getProperty("UnitId")) && seen.add(q)) {
                OUT.println("AT\t" + id + "\t" + clean(q.getMap() == null ? "" : q.getMap().getMapName())
                  + "\t" + clean(q.getProperty("LocationName")));
                found = true;
              }
            }
          }
          if (!found) {
            OUT.println("AT\t" + id + "\t\t");
          }
        }
        return;
      }
      case "LOS": {  // draw the main map's line-of-sight thread from (x1,y1) to (x2,y2), in steps
        VASSAL.build.module.Map m = VASSAL.build.module.Map.getMapList().get(0);
        VASSAL.build.module.map.LOS_Thread los = m.getComponentsOf(VASSAL.build.module.map.LOS_Thread.class).get(0);
        java.lang.reflect.Method launch = VASSAL.build.module.map.LOS_Thread.class.getDeclaredMethod("launch");
        launch.setAccessible(true);
        launch.invoke(los);
        int x1 = Integer.parseInt(f[1]), y1 = Integer.parseInt(f[2]);
        int x2 = Integer.parseInt(f[3]), y2 = Integer.parseInt(f[4]);
        int before = chatLength();
        java.awt.Component view = m.getView();
        int btn = java.awt.event.InputEvent.BUTTON1_DOWN_MASK;
        los.mousePressed(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_PRESSED,
          1L, btn, x1, y1, 1, false, java.awt.event.MouseEvent.BUTTON1));
        int steps = 40;
        for (int i = 1; i <= steps; i++) {  // dragged in component coordinates
          java.awt.Point c = m.mapToComponent(new java.awt.Point(x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps));
          los.mouseDragged(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_DRAGGED,
            2L + i, btn, c.x, c.y, 1, false, java.awt.event.MouseEvent.BUTTON1));
        }
        los.mouseReleased(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_RELEASED,
          100L, btn, x2, y2, 1, false, java.awt.event.MouseEvent.BUTTON1));
        chatSince(before);
        return;
      }
      case "SHOW": {  // the player window on screen, as a player has it (toolbar hotkeys need it)
        gm.getPlayerWindow().setSize(1280, 1000);
        gm.getPlayerWindow().setVisible(true);
        return;
      }
      case "FIRE": {  // a global key as the module fires it: 'code,modifiers[,name]'
        int before = chatLength();
        gm.fireKeyStroke(VASSAL.configure.NamedHotKeyConfigurer.decode(f[1]));
        chatSince(before);
        return;
      }
      case "BUTTON": {
        int before = chatLength();
        for (java.awt.Component k : WizardCloser.all(gm.getPlayerWindow().getContentPane())) {
          if (k instanceof javax.swing.AbstractButton && f[1].equals(((javax.swing.AbstractButton) k).getText())) {
            ((javax.swing.AbstractButton) k).doClick();
            OUT.println("PRESSED\t" + clean(f[1]));
            chatSince(before);
            return;
          }
        }
        for (VASSAL.build.module.GlobalKeyCommand k : gm.getAllDescendantComponentsOf(VASSAL.build.module.GlobalKeyCommand.class)) {
          if (f[1].equals(k.getAttributeValueString("buttonText"))) {
            k.apply();  // a button a toolbar menu holds
            OUT.println("PRESSED\t" + clean(f[1]));
            chatSince(before);
            return;
          }
        }
        problem("NOBUTTON", f[1]);
        return;
      }
      case "CHATALL": {  // every line the chat gained in this script
        chatSince(chatAtStart);
        return;
      }
      case "NAMED": {  // properties of the first piece with that name: NAMED name p1,p2
        for (GamePiece p : gs.getAllPieces()) {
          for (GamePiece q : p instanceof Stack ? ((Stack) p).asList() : List.of(p)) {
            if (f[1].equals(q.getName())) {
              for (String name : f[2].split(",")) {
                OUT.println("PROP\t" + f[1] + "\t" + name + "\t" + clean(q.getProperty(name)));
              }
              return;
            }
          }
        }
        problem("NOPIECE", f[1]);
        return;
      }
      case "PROPS": {
        GamePiece p = dropped.get(f[1]);
        for (String name : f[2].split(",")) {
          OUT.println("PROP\t" + f[1] + "\t" + name + "\t" + clean(p.getProperty(name)));
        }
        return;
      }
      case "CALCS": {  // every calculated property of a dropped piece evaluated; errors in full
        GamePiece p = dropped.get(f[1]);
        for (GamePiece q = p; q instanceof VASSAL.counters.Decorator; q = ((VASSAL.counters.Decorator) q).getInner()) {
          if (q instanceof VASSAL.counters.CalculatedProperty) {
            VASSAL.counters.CalculatedProperty cp = (VASSAL.counters.CalculatedProperty) q;
            String expr = cp.getExpressionList().get(0);
            try {
              new VASSAL.script.ExpressionInterpreter(expr).evaluate(p);
            }
            catch (VASSAL.script.expression.ExpressionException t) {
              problem("CALCERR", cp.getName() + ": " + t.getError() + ": " + expr);
            }
            catch (Throwable t) {
              problem("CALCERR", cp.getName() + ": " + t + ": " + expr);
            }
          }
        }
        return;
      }
      default:
        problem("BADCOMMAND", f[0]);
    }
  }

  /** The chat lines a command writes (Report traits answer a key with Chatter.DisplayText). */
  static void chat(Command c) {
    if (c == null) {
      return;
    }
    if (c instanceof Chatter.DisplayText) {
      OUT.println("CHAT\t" + clean(((Chatter.DisplayText) c).getMessage()));
    }
    for (Command sub : c.getSubCommands()) {
      chat(sub);
    }
  }

  /** The chat window's text (the Chatter's text pane), as a player reads it. */
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

  static int chatLength() {
    return chatText().length();
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

  static GamePiece findUnit(String id, String location) {
    for (GamePiece p : GameModule.getGameModule().getGameState().getAllPieces()) {
      List<GamePiece> pieces = p instanceof Stack ? ((Stack) p).asList() : List.of(p);
      for (GamePiece q : pieces) {
        if (id.equals(q.getProperty("UnitId")) && location.equals(q.getProperty("LocationName"))) {
          return q;
        }
      }
    }
    return null;
  }
}
