// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** USPS DPV code, or "" when no reference data covers the address. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum Dpv implements ApiEnum {
  Y("Y"),
  N("N"),
  S("S"),
  D("D"),
  NONE(""),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  Dpv(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
