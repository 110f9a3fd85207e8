package org.netbeans.spi.wizard;

/** Stub of the wizard library's checked exception. */
public class WizardException extends Exception {
  public WizardException(String message) {
    super(message);
  }
}
