// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;
import java.util.Objects;

/** {@code client.feedback()}: the feedback operations. */
public class Feedback {
  final Transport transport;

  Feedback(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code POST /v1/feedback}: Tell what became of a mail.
   * A hard bounce makes the address {@code invalid} ({@code reason} {@code bounced}) in this account's answers from now on; the outcomes of a domain's addresses give its catch-all answers a {@code catch_all_score}. One outcome per address, the latest standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.
   */
  public FeedbackRecorded send(String email, String outcome) {
    String body = new Bodies.Members()
        .put("email", email, true)
        .put("outcome", outcome, true)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/feedback", body);
    return transport.json(call, FeedbackRecorded.class);
  }

  /**
   * {@code POST /v1/feedback}: Tell what became of a mail.
   * A hard bounce makes the address {@code invalid} ({@code reason} {@code bounced}) in this account's answers from now on; the outcomes of a domain's addresses give its catch-all answers a {@code catch_all_score}. One outcome per address, the latest standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.
   */
  public FeedbackRecorded send(Map<String, ?> body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/feedback", Json.GSON.toJson(body));
    return transport.json(call, FeedbackRecorded.class);
  }
}
