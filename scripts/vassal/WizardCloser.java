// Answers the modal dialogs a new game opens, so the engine checkers never wait for a person.
// VASSAL 3.7 starts a new game with a wizard: a modal "choose side" dialog (sides of the
// PlayerRoster, and observer). A modal dialog shown inside SwingUtilities.invokeAndWait blocks
// that call until someone closes it, so a checker hangs until killed. A daemon thread looks for
// showing modal dialogs every 150 ms and answers each on the event thread (modal dialogs keep
// pumping events): the first real side in any list or combo box, then the button that goes on
// (Finish, OK, Next, Yes, Start), else the first enabled button. Each answer is reported.
// VASSAL 3.7's "New Session Beginning. Start new Logfile?" is answered No, as a player who
// starts a game to play it does (Yes opens a file chooser to write a log).

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Window;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.swing.AbstractButton;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JOptionPane;
import javax.swing.JRadioButton;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

public final class WizardCloser {
  static final String[] GO_ON = {"finish", "ok", "next", "yes", "start", "join", "done"};
  static final Map<Window, Boolean> answering = Collections.synchronizedMap(new IdentityHashMap<>());

  private WizardCloser() {
  }

  /** Start answering; `report` gets "title<TAB>what was chosen<TAB>dialog text" per dialog. */
  public static void start(Consumer<String> report) {
    Thread t = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(150);
        }
        catch (InterruptedException e) {
          return;
        }
        for (Window w : Window.getWindows()) {
          if (w instanceof Dialog && w.isShowing() && ((Dialog) w).isModal() && answering.put(w, true) == null) {
            SwingUtilities.invokeLater(() -> answer((Dialog) w, report));
          }
        }
      }
    }, "wizard-closer");
    t.setDaemon(true);
    t.start();
  }

  static void answer(Dialog d, Consumer<String> report) {
    try {
      if (!d.isShowing()) {
        return;  // closed since it was seen (answered already, or closed by the engine)
      }
      StringBuilder text = new StringBuilder();
      text(d, text);
      boolean logfile = text.toString().contains("Start new Logfile?");
      String chosen = logfile ? "No" : choose(d);
      AbstractButton go = logfile ? button(d, "no") : goOn(d);
      report.accept(clean(d.getTitle()) + "\t" + clean(chosen) + "\t" + clean(text.toString()));
      if (go != null) {
        go.doClick();
      }
      if (d.isShowing()) {
        d.dispose();
      }
    }
    finally {
      answering.remove(d);
    }
  }

  /** Select the first entry of each list or combo box that is not "observer"; say which. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static String choose(Container c) {
    List<String> picked = new ArrayList<>();
    for (Component k : all(c)) {
      if (k instanceof JComboBox) {
        JComboBox box = (JComboBox) k;
        for (int i = 0; i < box.getItemCount(); i++) {
          if (!isObserver(box.getItemAt(i))) {
            box.setSelectedIndex(i);
            picked.add(String.valueOf(box.getItemAt(i)));
            break;
          }
        }
      }
      else if (k instanceof JList) {
        JList list = (JList) k;
        for (int i = 0; i < list.getModel().getSize(); i++) {
          if (!isObserver(list.getModel().getElementAt(i))) {
            list.setSelectedIndex(i);
            picked.add(String.valueOf(list.getModel().getElementAt(i)));
            break;
          }
        }
      }
      else if (k instanceof JRadioButton && picked.isEmpty() && !isObserver(((JRadioButton) k).getText())) {
        ((JRadioButton) k).setSelected(true);
        picked.add(((JRadioButton) k).getText());
      }
      else if (k instanceof JOptionPane) {
        JOptionPane p = (JOptionPane) k;
        Object[] values = p.getSelectionValues();
        if (values != null) {
          for (Object v : values) {
            if (!isObserver(v)) {
              p.setInputValue(v);
              picked.add(String.valueOf(v));
              break;
            }
          }
        }
      }
    }
    return String.join(",", new java.util.LinkedHashSet<>(picked));
  }

  static boolean isObserver(Object o) {
    String s = String.valueOf(o).toLowerCase();
    return o == null || s.contains("observer") || s.isBlank();
  }

  static AbstractButton goOn(Container c) {
    AbstractButton first = null;
    for (String word : GO_ON) {
      for (Component k : all(c)) {
        if (k instanceof AbstractButton && !(k instanceof JRadioButton) && k.isEnabled() && k.isShowing()) {
          String label = String.valueOf(((AbstractButton) k).getText()).trim().toLowerCase();
          if (first == null) {
            first = (AbstractButton) k;
          }
          if (label.equals(word) || label.startsWith(word + " ")) {
            return (AbstractButton) k;
          }
        }
      }
    }
    return first;
  }

  static AbstractButton button(Container c, String label) {
    for (Component k : all(c)) {
      if (k instanceof AbstractButton && label.equalsIgnoreCase(String.valueOf(((AbstractButton) k).getText()).trim())) {
        return (AbstractButton) k;
      }
    }
    return null;
  }

  static List<Component> all(Container c) {
    List<Component> out = new ArrayList<>();
    for (Component k : c.getComponents()) {
      out.add(k);
      if (k instanceof Container) {
        out.addAll(all((Container) k));
      }
    }
    return out;
  }

  static void text(Container c, StringBuilder sb) {
    for (Component k : all(c)) {
      if (k instanceof JLabel) {
        sb.append(((JLabel) k).getText()).append(' ');
      }
      else if (k instanceof JTextComponent) {
        sb.append(((JTextComponent) k).getText()).append(' ');
      }
      else if (k instanceof JOptionPane) {
        sb.append(((JOptionPane) k).getMessage()).append(' ');
      }
    }
  }

  static String clean(Object o) {
    return String.valueOf(o).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  /**
   * A stand-in for VASSAL 3.7's side question (for testing the closer on an engine without the
   * wizard): a modal "Choose side" dialog listing the roster's sides, shown on the event thread.
   */
  public static String askSideLikeTheWizard(String[] sides) {
    Object[] values = new Object[sides.length + 1];
    values[0] = "<observer>";
    System.arraycopy(sides, 0, values, 1, sides.length);
    Object v = JOptionPane.showInputDialog(null, "Join game as which side?", "Choose side",
      JOptionPane.QUESTION_MESSAGE, null, values, values[0]);
    return String.valueOf(v);
  }
}
