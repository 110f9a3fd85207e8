package org.netbeans.spi.wizard;

/** Stub: the wizard's navigation state, reported instead of shown. */
public class WizardController {
  public static final int MODE_CAN_CONTINUE = 1;
  public static final int MODE_CAN_FINISH = 2;
  public static final int MODE_CAN_CONTINUE_OR_FINISH = 3;
  public String problem;

  public void setProblem(String value) {
    problem = value;
  }

  public void setForwardNavigationMode(int mode) {
  }
}
