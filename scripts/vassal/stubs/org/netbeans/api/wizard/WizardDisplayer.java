package org.netbeans.api.wizard;

import java.awt.Rectangle;
import java.util.HashMap;
import java.util.Map;
import javax.swing.Action;
import org.netbeans.spi.wizard.Wizard;
import org.netbeans.spi.wizard.WizardPage;
import org.netbeans.spi.wizard.WizardPanelProvider;

/** Stub: instead of showing a wizard, report it and finish it with its defaults. */
public final class WizardDisplayer {
  private WizardDisplayer() {
  }

  public static Object showWizard(Wizard wizard, Rectangle bounds) {
    return showWizard(wizard, bounds, null, new HashMap());
  }

  public static Object showWizard(Wizard wizard, Rectangle bounds, Action help, Map initial) {
    Object p = wizard.provider;
    String steps = p instanceof WizardPanelProvider
        ? String.join(",", ((WizardPanelProvider) p).steps) : "";
    System.out.println("WIZARD\t" + p.getClass().getName() + "\t" + steps);
    if (p instanceof WizardPage.WizardResultProducer) {
      try {
        return ((WizardPage.WizardResultProducer) p).finish(initial == null ? new HashMap() : initial);
      }
      catch (Exception e) {
        System.out.println("WARN\twizard finish: " + e);
      }
    }
    return null;
  }
}
