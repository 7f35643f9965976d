// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.List;

/** The schema {@code WebhookEndpoint}. */
public record WebhookEndpoint(
    String id,
    String url,
    List<String> events,
    Instant createdAt
) {}
