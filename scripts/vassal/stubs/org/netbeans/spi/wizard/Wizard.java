package org.netbeans.spi.wizard;

/** Stub: holds the provider a real wizard would display. */
public final class Wizard {
  public final Object provider;

  public Wizard(Object provider) {
    this.provider = provider;
  }
}
