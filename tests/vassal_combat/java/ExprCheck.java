// Evaluates expressions with the real VASSAL engine's ExpressionInterpreter (BeanShell), so the
// tests can compare the engine's answers with builder.vassal_combat.beanshell and the rules
// assistant. Reads a script on stdin, one record a line, fields separated by TAB; in values
// "\t", "\n" and "\\" stand for a tab, a newline and a backslash:
//   P name expr     define a calculated property (kept for every later case)
//   C               start a case: forget the case's property values
//   Z               start another table: forget every property, global and value
//   G name value    a global property value (kept for every later case)
//   V name value    a property value of the current case (it hides a global of that name)
//   E name          print "R<TAB>value" (the property evaluated as its trait does) or "X<TAB>error"
//   X expr          print "R<TAB>value" for an expression BeanShell evaluates against the case
// A calculated property is evaluated on demand, against the same properties, as VASSAL's
// CalculatedProperty trait does; results are cached within a case.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import VASSAL.build.module.properties.PropertySource;
import VASSAL.script.ExpressionInterpreter;
import VASSAL.script.expression.BeanShellExpression;
import VASSAL.script.expression.Expression;

public class ExprCheck {
  static final Map<String, String> calcs = new HashMap<>();
  static final Map<String, Expression> compiled = new HashMap<>();
  static final Map<String, ExpressionInterpreter> raw = new HashMap<>();
  static final Map<String, String> values = new HashMap<>();
  static final Map<String, String> globals = new HashMap<>();
  static final Map<String, String> cache = new HashMap<>();
  static final Set<String> busy = new HashSet<>();

  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n);
      }
      else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
  }

  static final PropertySource SOURCE = new PropertySource() {
    public Object getProperty(Object key) {
      String k = String.valueOf(key);
      if (values.containsKey(k)) {
        return values.get(k);
      }
      if (globals.containsKey(k)) {
        return globals.get(k);
      }
      if (calcs.containsKey(k)) {
        if (cache.containsKey(k)) {
          return cache.get(k);
        }
        if (!busy.add(k)) {
          return "";
        }
        String v;
        try {
          v = trait(calcs.get(k)).evaluate(this);
        }
        catch (Exception e) {
          v = "";
        }
        busy.remove(k);
        cache.put(k, v);
        return v;
      }
      return null;
    }

    public Object getLocalizedProperty(Object key) {
      return getProperty(key);
    }
  };

  // made as the CalculatedProperty trait makes its expression (VASSAL 3.7 reads a lone name,
  // 'false' too, as a property and a lone number as a number, not through BeanShell)
  static ExpressionInterpreter interpreter(String expr) throws Exception {
    ExpressionInterpreter e = raw.get(expr);
    if (e == null) {
      e = new ExpressionInterpreter(expr);
      raw.put(expr, e);
    }
    return e;
  }

  static Expression trait(String expr) throws Exception {
    Expression e = compiled.get(expr);
    if (e == null) {
      e = BeanShellExpression.createExpression("{" + expr + "}", true);
      compiled.put(expr, e);
    }
    return e;
  }

  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  static final boolean EDT = false;  // EngineServer: no Swing here, lines run on its own thread

  /** A one-shot run: the script on stdin. */
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      run(line.split("\t", -1));
    }
    OUT.flush();
    System.exit(0);
  }

  /** A script begins (EngineServer): nothing defined, no value, no global. */
  static void begin(String loadError) {
    calcs.clear();
    compiled.clear();
    raw.clear();
    globals.clear();
    values.clear();
    cache.clear();
    busy.clear();
  }

  static void end() {
    OUT.flush();
  }

  static void problem(String kind, String text) {
    OUT.println("PROBLEM\t" + kind + "\t" + escape(String.valueOf(text)));
  }

  static void run(String[] f) {
    switch (f[0]) {
      case "P":
        calcs.put(f[1], unescape(f[2]));
        break;
      case "C":
        values.clear();
        cache.clear();
        break;
      case "Z":  // another table: forget its properties, globals and values
        calcs.clear();
        compiled.clear();
        globals.clear();
        values.clear();
        cache.clear();
        break;
      case "G":
        globals.put(f[1], unescape(f[2]));
        cache.clear();
        break;
      case "V":
        values.put(f[1], unescape(f[2]));
        cache.clear();
        break;
      case "E":
      case "X":
        try {
          String v = f[0].equals("E") ? trait(calcs.get(f[1])).evaluate(SOURCE)
            : interpreter(unescape(f[1])).evaluate(SOURCE);
          OUT.println("R\t" + escape(v));
        }
        catch (Throwable t) {
          OUT.println("X\t" + escape(String.valueOf(t)));
        }
        break;
      default:
        break;
    }
  }
}
