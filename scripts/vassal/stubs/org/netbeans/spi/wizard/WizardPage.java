package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JPanel;

/** Stub: a wizard page is a panel. */
public class WizardPage extends JPanel {
  private final java.util.Map<Object, Object> data = new java.util.HashMap<>();

  public WizardPage(String title) {
    setName(title);
  }

  protected void putWizardData(Object key, Object value) {
    data.put(key, value);
  }

  protected Object getWizardData(Object key) {
    return data.get(key);
  }

  /** What finishes or cancels a wizard. */
  public interface WizardResultProducer {
    Object finish(Map wizardData) throws WizardException;

    boolean cancel(Map settings);
  }
}
