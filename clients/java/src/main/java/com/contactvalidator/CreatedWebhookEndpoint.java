// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.List;

/** The schema {@code CreatedWebhookEndpoint}. */
public record CreatedWebhookEndpoint(
    String id,
    String url,
    List<String> events,
    Instant createdAt,
    /** The signing secret, shown this once: {@code Contact-Validator-Signature} is the HMAC-SHA256 of {@code &lt;t&gt;.&lt;raw body&gt;} under it */
    String secret
) {}
