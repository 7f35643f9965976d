// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** {@code pending}: the probe goes on past the budget; {@code skipped}: no probe was made. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum SmtpVerdict implements ApiEnum {
  DELIVERABLE("deliverable"),
  UNDELIVERABLE("undeliverable"),
  CATCH_ALL("catch_all"),
  MAILBOX_FULL("mailbox_full"),
  DISABLED("disabled"),
  UNKNOWN("unknown"),
  PENDING("pending"),
  SKIPPED("skipped"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  SmtpVerdict(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
