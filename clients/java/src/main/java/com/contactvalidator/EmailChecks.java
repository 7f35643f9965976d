// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import com.google.gson.JsonObject;
import java.util.Objects;

/** {@code client.emailChecks()}: the email checks operations. */
public class EmailChecks {
  final Transport transport;

  EmailChecks(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code GET /v1/email-checks/{check_id}}: An e-mail answer that arrives later.
   * A {@code temp_fail}, {@code throttled} or {@code timeout} e-mail answer carries {@code check_id}: the service asks the mail server again on a schedule (the server's own "try again in …" respected) and keeps the definite answer here, in the cache for the next {@code /v1/validate}, and in an {@code email.verified} event. No further charge. Another account's check answers 404, exactly like a missing one.
   */
  public JsonObject get(String checkId) {
    Objects.requireNonNull(checkId, "checkId");
    Transport.Call call = Transport.Call.json("GET", "/v1/email-checks/" + Paths.segment(checkId), null);
    return transport.json(call, JsonObject.class);
  }
}
