// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum PhoneType implements ApiEnum {
  MOBILE("mobile"),
  LANDLINE("landline"),
  FIXED_OR_MOBILE("fixed_or_mobile"),
  VOIP("voip"),
  TOLL_FREE("toll_free"),
  PREMIUM_RATE("premium_rate"),
  SHARED_COST("shared_cost"),
  PERSONAL("personal"),
  PAGER("pager"),
  UAN("uan"),
  VOICEMAIL("voicemail"),
  UNKNOWN("unknown"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  PhoneType(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
