// Opens a .vmod in a real VASSAL engine and reports what the engine saw, one tab-separated record
// a line: every warning or error the engine logs or shows, every palette piece (built, drawn and
// flipped), the pieces each set-up places with their location names, and the location name of
// probe points. Run by scripts/vassal-check under Xvfb; the Python tests judge the records.
//
// Usage: java VCheck MODULE.vmod [PROBES.tsv]   (PROBES: "map<TAB>x<TAB>y" per line)
// (the tests run the same steps in a long-lived engine: tests/vassal_combat/java/EngineServer.java)
// Modal dialogs (VASSAL 3.7's new-game wizard) are answered by WizardCloser: ANSWERED records.

import java.awt.Component;
import java.awt.Container;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import javax.swing.AbstractButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.DiceButton;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.module.PrototypeDefinition;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.build.widget.PieceSlot;
import VASSAL.counters.BasicPiece;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;
import VASSAL.tools.ErrorDialog;
import VASSAL.tools.bug.BugHandler;

public class VCheck {
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  static final List<String> problems = new ArrayList<>();

  static String clean(Object o) {
    return String.valueOf(o).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  static synchronized void problem(String kind, String text) {
    String line = kind + "\t" + clean(text);
    problems.add(line);
    OUT.println(line);
  }

  /** Every WARN or ERROR the engine logs (bad data, missing images, exceptions) is a problem. */
  static class Catcher extends AppenderBase<ILoggingEvent> {
    @Override
    protected void append(ILoggingEvent e) {
      if (!e.getLevel().isGreaterOrEqual(Level.WARN)) {
        return;
      }
      StringBuilder sb = new StringBuilder(e.getLoggerName()).append(": ").append(e.getFormattedMessage());
      IThrowableProxy t = e.getThrowableProxy();
      while (t != null) {
        sb.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        t = t.getCause();
      }
      problem(e.getLevel().toString(), sb.toString());
    }
  }

  static void onEdt(Runnable r) throws Exception {
    SwingUtilities.invokeAndWait(r);
  }

  /** The script a one-shot run plays; tests/vassal_combat/engine.py sends the same lines to a
   *  long-lived engine (EngineServer), one per module. */
  static final String[] STEPS = {"ATTRIBUTES", "REPORT", "TOOLBARS", "SETUPS"};

  public static void main(String[] args) throws Exception {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    Catcher catcher = new Catcher();
    catcher.setContext(ctx);
    catcher.start();
    ctx.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(catcher);
    Thread.setDefaultUncaughtExceptionHandler((th, ex) -> problem("UNCAUGHT", ex.toString()));
    // VASSAL 3.7's new-game wizard asks for a side in a modal dialog: answered, and reported
    WizardCloser.start(line -> OUT.println("ANSWERED\t" + line));
    ErrorDialog.addBugHandler(new BugHandler() {
      public boolean accept(Throwable t) { return true; }
      public void handle(Throwable t) { problem("BUG", t.toString()); }
    });

    final String path = args[0];
    final String[] loadError = {null};
    onEdt(() -> {
      try {
        Info.setConfig(new StandardConfig());
        Class<?> mm = Class.forName("VASSAL.launch.Player$PlayerMenuManager");
        Constructor<?> c = mm.getDeclaredConstructor();
        c.setAccessible(true);
        c.newInstance();
        GameModule.init(new GameModule(new DataArchive(path)));
      }
      catch (Throwable t) {
        loadError[0] = t.toString();
        t.printStackTrace();
      }
    });
    if (loadError[0] == null && GameModule.getGameModule() == null) {
      loadError[0] = "no module";
    }
    onEdt(() -> begin(loadError[0]));
    if (loadError[0] == null) {
      for (String step : STEPS) {
        final String[] f = {step, args.length > 1 ? args[1] : ""};
        onEdt(() -> {
          try {
            run(f);
          }
          catch (Throwable t) {
            problem("EXCEPTION", t.toString());
            t.printStackTrace();
          }
        });
      }
    }
    end();
    Runtime.getRuntime().halt(0);
  }

  static String askSide;  // VCHECK_ASK_SIDE, or ASK in a script: sides to ask for as 3.7 does

  /** A run begins: no problem yet; LOADED and ENGINE (or why the module did not open). */
  static void begin(String loadError) {
    problems.clear();
    askSide = System.getenv("VCHECK_ASK_SIDE");
    if (loadError != null) {
      problem("LOADFAIL", loadError);
      return;
    }
    GameModule gm = GameModule.getGameModule();
    OUT.println("LOADED\t" + clean(gm.getGameName()) + "\t" + clean(gm.getGameVersion()));
    OUT.println("ENGINE\t" + clean(Info.getVersion()));
  }

  /** One step: ATTRIBUTES, REPORT, TOOLBARS, SETUPS [probes file or .vsav to write],
   *  ASK side,side (ask for a side modally when the new game starts, as VASSAL 3.7 does). */
  static void run(String[] f) throws Exception {
    GameModule gm = GameModule.getGameModule();
    String arg = f.length > 1 && !f[1].isEmpty() ? f[1] : null;
    switch (f[0]) {
      case "ATTRIBUTES":
        attributes(gm);
        return;
      case "REPORT":
        report(gm);
        return;
      case "TOOLBARS":
        toolbars(gm);
        return;
      case "SETUPS":
        setups(gm, arg);
        return;
      case "ASK":
        askSide = arg;
        return;
      default:
        problem("BADCOMMAND", f[0]);
    }
  }

  /** The run ends (off the event thread): dialogs still open are problems; DONE. */
  static void end() throws Exception {
    if (GameModule.getGameModule() != null) {
      Thread.sleep(500);
      onEdt(VCheck::dialogs);
    }
    OUT.println("DONE\t" + problems.size());
    OUT.flush();
  }

  /** Every buildFile attribute the engine's component does not know (VASSAL ignores those silently). */
  static void attributes(GameModule gm) throws Exception {
    javax.xml.parsers.DocumentBuilder db = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder();
    org.w3c.dom.Document doc;
    try (InputStream in = gm.getDataArchive().getInputStream("buildFile.xml")) {
      doc = db.parse(in);
    }
    java.util.Map<String, java.util.Set<String>> known = new java.util.TreeMap<>();
    org.w3c.dom.NodeList all = doc.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      org.w3c.dom.Element e = (org.w3c.dom.Element) all.item(i);
      String tag = e.getTagName();
      if (!tag.startsWith("VASSAL.") || "VASSAL.build.GameModule".equals(tag)) {
        continue;
      }
      if (!known.containsKey(tag)) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        try {
          Object o = Class.forName(tag).getDeclaredConstructor().newInstance();
          if (o instanceof VASSAL.build.AbstractConfigurable) {
            names.addAll(java.util.Arrays.asList(((VASSAL.build.AbstractConfigurable) o).getAttributeNames()));
          }
          else {
            names = null;
          }
        }
        catch (Throwable t) {
          problem("NOCLASS", tag + ": " + t);
          names = null;
        }
        known.put(tag, names);
        OUT.println("ATTRS\t" + tag + "\t" + (names == null ? "?" : String.join(",", names)));
      }
      java.util.Set<String> names = known.get(tag);
      if (names == null || names.isEmpty()) {
        continue;
      }
      org.w3c.dom.NamedNodeMap at = e.getAttributes();
      for (int k = 0; k < at.getLength(); k++) {
        String a = at.item(k).getNodeName();
        if (!names.contains(a)) {
          OUT.println("UNKNOWNATTR\t" + tag + "\t" + a);
        }
      }
    }
  }

  /** The module's parts: maps and boards (images drawn), prototypes, palette pieces, dice, turns. */
  static void report(GameModule gm) {
    for (Map m : Map.getMapList()) {
      OUT.println("MAP\t" + clean(m.getMapName()) + "\t" + clean(m.getId()));
      for (String bn : m.getBoardPicker().getAllowableBoardNames()) {
        Board b = m.getBoardPicker().getBoard(bn);
        Rectangle r = b.bounds();
        BufferedImage img = new BufferedImage(64, 64, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        b.drawRegion(g, new Point(0, 0), new Rectangle(0, 0, 64, 64), 1.0, null);
        g.dispose();
        java.awt.Dimension d = b.getSize();
        OUT.println("BOARD\t" + clean(m.getMapName()) + "\t" + clean(b.getName()) + "\t"
          + d.width + "\t" + d.height + "\t" + (b.getGrid() == null ? "" : b.getGrid().getClass().getSimpleName())
          + "\t" + r.width);
      }
    }
    for (PrototypeDefinition p : gm.getAllDescendantComponentsOf(PrototypeDefinition.class)) {
      GamePiece piece = p.getPiece();
      OUT.println("PROTOTYPE\t" + clean(p.getConfigureName()) + "\t" + (piece == null ? "null" : "ok"));
    }
    for (PieceSlot slot : gm.getAllDescendantComponentsOf(PieceSlot.class)) {
      GamePiece proto = slot.getPiece();
      if (proto == null) {
        problem("PIECEFAIL", slot.getConfigureName());
        continue;
      }
      GamePiece p = PieceCloner.getInstance().clonePiece(proto);
      Rectangle bb = p.boundingBox();
      draw(p);
      String name = p.getName();
      String props = props(p);
      // Ctrl+F: the flip every two-sided unit carries.
      p.keyEvent(KeyStroke.getKeyStroke(70, java.awt.event.InputEvent.CTRL_DOWN_MASK));
      draw(p);
      String flipped = p.getName();
      OUT.println("SLOT\t" + clean(slot.getConfigureName()) + "\t" + clean(name) + "\t" + clean(flipped)
        + "\t" + bb.width + "x" + bb.height + "\t" + clean(props));
    }
    // Charts: each image loaded as the chart window would, each HTML page read from the archive.
    for (VASSAL.build.widget.Chart ch : gm.getAllDescendantComponentsOf(VASSAL.build.widget.Chart.class)) {
      String file = ch.getAttributeValueString("fileName");
      BufferedImage img = VASSAL.tools.imageop.Op.load(file).getImage();
      OUT.println("CHART\t" + clean(ch.getConfigureName()) + "\t" + clean(file) + "\t"
        + (img == null ? "0x0" : img.getWidth() + "x" + img.getHeight()));
    }
    for (VASSAL.build.widget.HtmlChart ch : gm.getAllDescendantComponentsOf(VASSAL.build.widget.HtmlChart.class)) {
      String file = ch.getAttributeValueString("fileName");
      try (InputStream in = gm.getDataArchive().getInputStream(file)) {
        OUT.println("HTMLCHART\t" + clean(ch.getConfigureName()) + "\t" + clean(file) + "\t" + in.readAllBytes().length);
      }
      catch (Exception e) {
        problem("HTMLCHARTFAIL", file + ": " + e);
      }
    }
    for (DiceButton d : gm.getAllDescendantComponentsOf(DiceButton.class)) {
      OUT.println("DICE\t" + clean(d.getConfigureName()) + "\t" + clean(d.getAttributeValueString("nDice"))
        + "\t" + clean(d.getAttributeValueString("nSides")));
    }
    for (TurnTracker t : gm.getAllDescendantComponentsOf(TurnTracker.class)) {
      OUT.println("TURN\t" + clean(t.getConfigureName()) + "\t" + clean(t.getAttributeValueString("turnFormat")));
    }
  }

  /**
   * What each toolbar shows, as the engine built it: TOOLBAR where text tooltip hotkey, one
   * record per button of the module's toolbar and of each map window's ("code,modifiers" of the
   * hotkey that presses it, as the button's listener holds it); WINDOW kind name for each palette,
   * chart window and map.
   */
  static void toolbars(GameModule gm) {
    java.util.Map<String, javax.swing.JToolBar> bars = new java.util.LinkedHashMap<>();
    bars.put("Module", gm.getToolBar());
    for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      bars.put(m.getMapName(), m.getToolBar());
    }
    for (java.util.Map.Entry<String, javax.swing.JToolBar> e : bars.entrySet()) {
      for (java.awt.Component k : WizardCloser.all(e.getValue())) {
        if (!(k instanceof javax.swing.AbstractButton) || !k.isVisible()) {
          continue;
        }
        javax.swing.AbstractButton b = (javax.swing.AbstractButton) k;
        String key = "";
        if (b instanceof VASSAL.tools.LaunchButton) {
          try {
            java.lang.reflect.Field f = VASSAL.tools.LaunchButton.class.getDeclaredField("keyListener");
            f.setAccessible(true);
            VASSAL.tools.NamedKeyStrokeListener l = (VASSAL.tools.NamedKeyStrokeListener) f.get(b);
            javax.swing.KeyStroke ks = l == null ? null : l.getKeyStroke();
            key = ks == null ? "" : ks.getKeyCode() + "," + ks.getModifiers();
          }
          catch (ReflectiveOperationException ex) {
            key = "?";
          }
        }
        OUT.println("TOOLBAR\t" + clean(e.getKey()) + "\t" + clean(b.getText()) + "\t"
          + clean(b.getToolTipText()) + "\t" + key);
      }
    }
    for (VASSAL.build.module.PieceWindow w : gm.getAllDescendantComponentsOf(VASSAL.build.module.PieceWindow.class)) {
      OUT.println("WINDOW\tpalette\t" + clean(w.getConfigureName()));
    }
    for (VASSAL.build.module.ChartWindow w : gm.getAllDescendantComponentsOf(VASSAL.build.module.ChartWindow.class)) {
      OUT.println("WINDOW\tcharts\t" + clean(w.getConfigureName()));
    }
    for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      OUT.println("WINDOW\tmap\t" + clean(m.getMapName()));
    }
  }

  static final String[] PROPS = {"UnitId", "MarkerId", "Side", "Formation", "Type", "Kind", "Attack",
    "Defense", "Movement", "Strength", "Step", "SetupNote"};

  /** The properties the module sets on pieces, as key=value; pairs. */
  static String props(GamePiece p) {
    StringBuilder sb = new StringBuilder();
    for (String k : PROPS) {
      Object v = p.getProperty(k);
      if (v != null && !"".equals(v.toString())) {
        sb.append(k).append('=').append(v).append('\u001f');
      }
    }
    return sb.toString();
  }

  static void draw(GamePiece p) {
    BufferedImage img = new BufferedImage(200, 200, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = img.createGraphics();
    p.draw(g, 100, 100, null, 1.0);
    g.dispose();
  }

  /** Location names of probe points, and where the grid snaps them to. */
  static void probe(String file) throws Exception {
    final List<String> lines = Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8);
      for (String line : lines) {
        String[] f = line.split("\t");
        if (f.length < 3) {
          continue;
        }
        Map m = findMap(f[0]);
        if (m == null) {
          problem("NOMAP", f[0]);
          continue;
        }
        // Probes are map coordinates (the game is started, so the boards are placed).
        Point p = new Point(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
        String name = m.locationName(p);
        Point s = m.snapTo(p);
        OUT.println("PROBE\t" + clean(f[0]) + "\t" + f[1] + "\t" + f[2] + "\t" + clean(name) + "\t" + s.x + "\t" + s.y);
      }
  }

  static Map findMap(String name) {
    for (Map m : Map.getMapList()) {
      if (name.equals(m.getMapName())) {
        return m;
      }
    }
    return null;
  }

  /** A new game (at-start stacks), then every predefined set-up: each placed piece and its location. */
  static void setups(GameModule gm, String probes) throws Exception {
    GameState gs = gm.getGameState();
    gs.setup(false);  // File > New Game starts from a closed game: at-start stacks are placed then
    gs.setup(true);
    String ask = askSide;
    if (ask != null && !ask.isEmpty()) {
      // a modal side question as VASSAL 3.7 asks it, to prove the checker answers it
      OUT.println("ASKED\t" + clean(WizardCloser.askSideLikeTheWizard(ask.split(","))));
    }
    if (probes != null && !probes.endsWith(".vsav")) {
      probe(probes);
    }
    listPieces("(new game)");
    if (probes != null && probes.endsWith(".vsav")) {
      // the engine's own save text, for comparing formats
      java.lang.reflect.Method m = GameState.class.getDeclaredMethod("saveString");
      m.setAccessible(true);
      Files.write(Paths.get(probes), ((String) m.invoke(gs)).getBytes(StandardCharsets.UTF_8));
    }
    for (PredefinedSetup s : gm.getAllDescendantComponentsOf(PredefinedSetup.class)) {
      if (s.isMenu() || !s.isUseFile() || s.getFileName() == null || s.getFileName().isEmpty()) {
        continue;
      }
      gs.setup(false);
      try (InputStream in = s.getSavedGameContents()) {
        gs.loadGameInForeground(s.getFileName(), in);
      }
      listPieces(s.getConfigureName());
      snapshot(s.getConfigureName());
    }
    gs.setup(false);
  }

  /** With VCHECK_SNAPSHOT=dir: each map around its pieces as the engine paints it (to look at). */
  static void snapshot(String setup) throws Exception {
    String dir = System.getenv("VCHECK_SNAPSHOT");
    if (dir == null || dir.isEmpty()) {
      return;
    }
    int n = 0;
    for (Map m : Map.getMapList()) {
      GamePiece[] ps = m.getPieces();
      if (ps.length == 0) {
        continue;
      }
      Point c = ps[0].getPosition();
      Rectangle r = new Rectangle(Math.max(0, c.x - 500), Math.max(0, c.y - 350), 1000, 700);
      BufferedImage img = new BufferedImage(r.width, r.height, BufferedImage.TYPE_INT_RGB);
      for (int pass = 0; pass < 6; pass++) {  // board tiles load in the background
        Graphics2D g = img.createGraphics();
        g.translate(-r.x, -r.y);
        m.paintRegion(g, r, m.getView());
        g.dispose();
        Thread.sleep(700);
      }
      String name = (setup + "-" + (n++)).replaceAll("[^A-Za-z0-9]+", "_") + ".png";
      javax.imageio.ImageIO.write(img, "png", new java.io.File(dir, name));
      OUT.println("SNAPSHOT\t" + clean(setup) + "\t" + clean(m.getMapName()) + "\t" + name);
    }
  }

  static void listPieces(String setup) {
    OUT.println("SETUP\t" + clean(setup) + "\t" + GameModule.getGameModule().getGameState().getAllPieces().size());
    for (Map m : Map.getMapList()) {
      OUT.println("BOARDS\t" + clean(m.getMapName()) + "\t" + m.getBoards().size() + "\t" + m.getPieces().length);
    }
    for (Map m : Map.getMapList()) {
      for (GamePiece gp : m.getPieces()) {
        if (gp instanceof Stack) {
          Stack st = (Stack) gp;
          for (GamePiece p : st.asList()) {
            piece(setup, m, p, st.getClass().getSimpleName());
          }
        }
        else {
          piece(setup, m, gp, "");
        }
      }
    }
  }

  static void piece(String setup, Map m, GamePiece p, String holder) {
    draw(p);
    Point pos = p.getPosition();
    OUT.println("PIECE\t" + clean(setup) + "\t" + clean(m.getMapName()) + "\t" + clean(p.getName()) + "\t"
      + clean(m.locationName(pos)) + "\t" + pos.x + "\t" + pos.y + "\t" + holder + "\t"
      + clean(props(p)));
    if (p.getProperty("UnitId") != null && "1".equals(String.valueOf(p.getProperty("Step")))) {
      // Ctrl+F on the map: the name, the factors and Step follow the face shown.
      KeyStroke flip = KeyStroke.getKeyStroke(70, java.awt.event.InputEvent.CTRL_DOWN_MASK);
      p.keyEvent(flip);
      OUT.println("FLIP\t" + clean(setup) + "\t" + clean(p.getName()) + "\t" + clean(props(p)));
      p.keyEvent(flip);
    }
  }

  /** Any dialog the engine opened (warnings, errors, board pickers) is reported with its text. */
  static void dialogs() {
    for (Window w : Window.getWindows()) {
      if (w instanceof JDialog && w.isShowing()) {
        StringBuilder sb = new StringBuilder(((JDialog) w).getTitle()).append(": ");
        text((Container) w, sb);
        problem("DIALOG", sb.toString());
      }
    }
  }

  static void text(Container c, StringBuilder sb) {
    for (Component k : c.getComponents()) {
      if (k instanceof JLabel) {
        sb.append(((JLabel) k).getText()).append(' ');
      }
      else if (k instanceof JTextComponent) {
        sb.append(((JTextComponent) k).getText()).append(' ');
      }
      else if (k instanceof JOptionPane) {
        sb.append(((JOptionPane) k).getMessage()).append(' ');
      }
      if (k instanceof Container) {
        text((Container) k, sb);
      }
    }
  }
}
