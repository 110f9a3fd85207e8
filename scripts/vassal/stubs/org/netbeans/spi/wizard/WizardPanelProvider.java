package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JComponent;

/** Stub: the steps of a wizard; createWizard wraps it for WizardDisplayer. */
public abstract class WizardPanelProvider {
  public final String title;
  public final String[] steps;

  protected WizardPanelProvider(String title, String singleStep, String description) {
    this.title = title;
    this.steps = new String[] {singleStep};
  }

  protected WizardPanelProvider(String title, String[] steps, String[] descriptions) {
    this.title = title;
    this.steps = steps;
  }

  protected WizardPanelProvider(String[] steps, String[] descriptions) {
    this(null, steps, descriptions);
  }

  protected abstract JComponent createPanel(WizardController controller, String id, Map settings);

  protected Object finish(Map settings) throws WizardException {
    return settings;
  }

  public boolean cancel(Map settings) {
    return true;
  }

  public final Wizard createWizard() {
    return new Wizard(this);
  }
}
