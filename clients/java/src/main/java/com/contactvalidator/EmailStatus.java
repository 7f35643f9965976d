// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum EmailStatus implements ApiEnum {
  VALID("valid"),
  INVALID("invalid"),
  RISKY("risky"),
  UNKNOWN("unknown"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  EmailStatus(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
