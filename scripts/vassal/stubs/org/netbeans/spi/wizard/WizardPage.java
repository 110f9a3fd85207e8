package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JPanel;

/** Stub: a wizard page is a panel. */
public class WizardPage extends JPanel {
  public WizardPage(String title) {
    setName(title);
  }

  /** What finishes or cancels a wizard. */
  public interface WizardResultProducer {
    Object finish(Map wizardData) throws WizardException;

    boolean cancel(Map settings);
  }
}
