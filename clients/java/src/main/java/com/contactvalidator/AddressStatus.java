package com.contactvalidator;

/** address.status (docs/api.md#vocabularies). A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum AddressStatus implements ApiEnum {
  VERIFIED("verified"),
  CORRECTED("corrected"),
  PARTIAL("partial"),
  PLAUSIBLE("plausible"),
  AMBIGUOUS("ambiguous"),
  INVALID("invalid"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  AddressStatus(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
