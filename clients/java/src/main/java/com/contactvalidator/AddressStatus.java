// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** {@code verified} delivery point confirmed; {@code corrected} confirmed by reference data after changing input components; {@code partial} building confirmed, unit missing or unknown; {@code plausible} well-formed and consistent but not confirmed (corrections made without reference data say so in {@code A#}/{@code B#}/{@code M#} footnotes); {@code ambiguous} several candidates; {@code invalid}. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
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
