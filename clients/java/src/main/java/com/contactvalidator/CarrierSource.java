package com.contactvalidator;

/** phone.carrier_source: live look-up, the number block's original holder, or none. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum CarrierSource implements ApiEnum {
  LIVE("live"),
  ALLOCATION("allocation"),
  NONE("none"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  CarrierSource(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
