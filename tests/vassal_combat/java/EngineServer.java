// One long-lived VASSAL engine for the tests: a JVM that opens one module once and then runs any
// number of scripts against it, so a test pays for neither a JVM start nor a module load.
// VASSAL's GameModule is a singleton (GameModule.init refuses a second module), hence one server
// per module; between scripts the game is closed (GameState.setup(false): pieces, global
// properties and the turn tracker go back to their start) as a player's File > Close does.
// Run by tests/vassal_combat/engine.py (EngineServer class there), under Xvfb when it opens a
// module; `java ... EngineServer` with no module serves ExprCheck (no display needed).
//
// Protocol: one command a line on stdin, fields TAB-separated; every command is answered on
// stdout by the records it makes, then a line READY (the "\u001e" record separator, then READY).
//   LOAD  module.vmod                  open the module (once; the first line, when there is one)
//   RUN   Helper  n                    run the next n lines as one script of the helper class
//                                      Helper (CombatCheck, VCheck, ExprCheck, ...): its records
//                                      are those a one-shot run of the helper prints
//                                      (UNSERVED instead when the helper lacks one of the methods
//                                      below: run it in a JVM of its own)
//   QUIT                               end the JVM
// A helper has static methods begin(String loadError) (reset its state, print its opening
// records, or report the failed load; on the event thread like run), run(String[] fields) (one script line: on the event
// thread unless the helper has a static boolean field EDT set to false), end() (closing
// records, DONE; off the event thread) and problem(String kind, String text): what the engine logs at WARN or above,
// exceptions no one catches and the engine's bug reports go to the helper running the script.

import java.awt.Dialog;
import java.awt.Window;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.swing.SwingUtilities;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;
import VASSAL.tools.ErrorDialog;
import VASSAL.tools.bug.BugHandler;

public class EngineServer {
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  static final String READY = "\u001eREADY";
  static final String UNSERVED = "\u001eUNSERVED";
  static volatile Class<?> current;  // the helper whose script runs now
  static String loadError;  // why the module did not open (null: it did, or none was asked)
  static boolean loadAsked;

  static final List<String[]> loadProblems = new ArrayList<>();  // reported by every script
  static final List<String[]> pending = new ArrayList<>();  // between scripts: the next one's
  static volatile boolean loading;

  /** A problem for the helper running a script. One while the module opens is reported by
   *  every script (a one-shot run opens the module and reports it too); one between scripts
   *  by the next script. */
  static synchronized void problem(String kind, String text) {
    Class<?> h = current;
    if (h == null) {
      (loading ? loadProblems : pending).add(new String[] {kind, text});
      return;
    }
    try {
      Method m = h.getDeclaredMethod("problem", String.class, String.class);
      m.setAccessible(true);
      m.invoke(null, kind, text);
    }
    catch (ReflectiveOperationException e) {
      OUT.println("PROBLEM\t" + kind + "\t" + String.valueOf(text).replace('\t', ' ').replace('\n', ' '));
    }
  }

  /** The problems of the module's opening, and those since the last script, to this one. */
  static synchronized void replay() {
    List<String[]> all = new ArrayList<>(loadProblems);
    all.addAll(pending);
    pending.clear();
    for (String[] p : all) {
      problem(p[0], p[1]);
    }
  }

  /** The engine's WARN and ERROR log lines (bad data, missing images, exceptions). */
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

  /** What every helper's one-shot main set up too: log catcher, uncaught exceptions, the
   *  dialog answerer, the engine's bug handler. */
  static void watch() {
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
  }

  /** Open the module as the Player does (on the event thread); remembers why it failed. */
  static void load(String path) throws Exception {
    loadAsked = true;
    loading = true;
    SwingUtilities.invokeAndWait(() -> {
      try {
        Info.setConfig(new StandardConfig());
        Class<?> mm = Class.forName("VASSAL.launch.Player$PlayerMenuManager");
        Constructor<?> c = mm.getDeclaredConstructor();
        c.setAccessible(true);
        c.newInstance();
        GameModule.init(new GameModule(new DataArchive(path)));
      }
      catch (Throwable t) {
        loadError = t.toString();
        t.printStackTrace();
      }
    });
    if (loadError == null && GameModule.getGameModule() == null) {
      loadError = "no module";
    }
    SwingUtilities.invokeAndWait(() -> { });  // what the opening queued has run
    loading = false;
  }

  static Object call(Class<?> h, String name, Class<?>[] types, Object... args) throws Exception {
    Method m;
    try {
      m = h.getDeclaredMethod(name, types);
    }
    catch (NoSuchMethodException e) {
      return null;
    }
    m.setAccessible(true);
    try {
      return m.invoke(null, args);
    }
    catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
  }

  /** Whether the helper can run here: begin, run, end and problem, all static. */
  static boolean serves(Class<?> h) {
    try {
      h.getDeclaredMethod("begin", String.class);
      h.getDeclaredMethod("run", String[].class);
      h.getDeclaredMethod("end");
      h.getDeclaredMethod("problem", String.class, String.class);
      return true;
    }
    catch (NoSuchMethodException e) {
      return false;
    }
  }

  static boolean onEdt(Class<?> h) {
    try {
      return h.getDeclaredField("EDT").getBoolean(null);
    }
    catch (ReflectiveOperationException e) {
      return true;
    }
  }

  /** One script: begin, each line (on the event thread unless the helper says not), end; the
   *  game is closed afterwards so the next script starts as a fresh engine would. */
  static void script(Class<?> h, List<String> lines) throws Exception {
    current = h;
    try {
      String why = loadAsked ? loadError : null;
      Runnable begin = () -> {
        try {
          call(h, "begin", new Class<?>[] {String.class}, why);
          replay();
        }
        catch (Throwable t) {
          problem("EXCEPTION", "begin: " + t);
          t.printStackTrace();
        }
      };
      if (onEdt(h)) {
        SwingUtilities.invokeAndWait(begin);
      }
      else {
        begin.run();
      }
      if (!loadAsked || loadError == null) {
        boolean edt = onEdt(h);
        for (String line : lines) {
          final String[] f = line.split("\t", -1);
          Runnable r = () -> {
            try {
              call(h, "run", new Class<?>[] {String[].class}, (Object) f);
            }
            catch (Throwable t) {
              problem("EXCEPTION", f[0] + ": " + t);
              t.printStackTrace();
            }
          };
          if (edt) {
            SwingUtilities.invokeAndWait(r);
          }
          else {
            r.run();
          }
        }
      }
      call(h, "end", new Class<?>[0]);
      if (loadAsked && loadError == null) {
        SwingUtilities.invokeAndWait(EngineServer::closeGame);
        settle();
      }
    }
    finally {
      current = null;
    }
  }

  /** Wait until the dialogs the script opened are answered (WizardCloser looks every 150 ms)
   *  and the event queue has run what the script queued: what they report is this script's. */
  static void settle() throws Exception {
    for (int i = 0; i < 100; i++) {
      Thread.sleep(i == 0 ? 200 : 100);
      final boolean[] open = {false};
      SwingUtilities.invokeAndWait(() -> {
        for (Window w : Window.getWindows()) {
          open[0] |= w instanceof Dialog && w.isShowing() && ((Dialog) w).isModal();
        }
      });
      if (!open[0]) {
        return;
      }
    }
  }

  /** File > Close: the game's pieces, properties and turn go; the player window is hidden. */
  static void closeGame() {
    GameModule gm = GameModule.getGameModule();
    try {
      gm.getGameState().setup(false);
      gm.getPlayerWindow().setVisible(false);
    }
    catch (Throwable t) {
      problem("EXCEPTION", "closing the game: " + t);
    }
  }

  /** A helper's one-shot main (java Helper MODULE SCRIPT): this JVM for one script. */
  static void oneShot(Class<?> h, String module, List<String> lines) throws Exception {
    watch();
    load(module);
    script(h, lines);
    OUT.flush();
    Runtime.getRuntime().halt(0);
  }

  public static void main(String[] args) throws Exception {
    watch();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.split("\t", -1);
      try {
        switch (f[0]) {
          case "LOAD":
            if (loadAsked) {
              problem("LOADFAIL", "one module per engine (VASSAL's GameModule is a singleton)");
            }
            else {
              load(f[1]);
              OUT.println(loadError == null ? "LOADED" : "LOADFAIL\t" + loadError.replace('\t', ' '));
            }
            break;
          case "RUN": {
            Class<?> h = Class.forName(f[1]);
            int n = Integer.parseInt(f[2]);
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < n; i++) {
              lines.add(in.readLine());
            }
            if (serves(h)) {
              script(h, lines);
            }
            else {  // the caller runs it in a JVM of its own
              OUT.println(UNSERVED);
            }
            break;
          }
          case "QUIT":
            OUT.flush();
            Runtime.getRuntime().halt(0);
            break;
          default:
            problem("BADCOMMAND", f[0]);
        }
      }
      catch (Throwable t) {
        problem("EXCEPTION", f[0] + ": " + t);
        t.printStackTrace();
      }
      System.err.flush();
      OUT.println(READY);
    }
    OUT.flush();
    Runtime.getRuntime().halt(0);
  }
}
