// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** {@code live}: current carrier from a live look-up; {@code allocation}: original holder of the number block; {@code none}. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
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
