// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** What to do with the answer (docs/api.md#next_action): {@code accept} it as it is; {@code confirm} it with the person (a correction, a suggestion, a guess or something not checked: {@code unknown}, {@code catch_all}, {@code partial}, …); {@code fix}: something is {@code invalid}. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum NextAction implements ApiEnum {
  ACCEPT("accept"),
  CONFIRM("confirm"),
  FIX("fix"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  NextAction(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
