package org.netbeans.spi.wizard;

import java.util.Map;

/** Stub: a wizard whose later steps depend on the first. */
public abstract class WizardBranchController {
  protected final WizardPanelProvider base;

  protected WizardBranchController(WizardPanelProvider base) {
    this.base = base;
  }

  protected Wizard getWizardForStep(String step, Map settings) {
    return null;
  }

  protected WizardPanelProvider getPanelProviderForStep(String step, Map settings) {
    return null;
  }

  public final Wizard createWizard() {
    return new Wizard(this);
  }
}
