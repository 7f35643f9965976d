// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** The schema {@code WebhookDelivery}. */
public record WebhookDelivery(
    String id,
    /** The {@code id} of the body sent: the same for every attempt, and every endpoint */
    String eventId,
    String type,
    /** {@code pending}: not yet delivered, tried again at {@code next_attempt_at}; {@code failed}: given up after the retry window */
    String status,
    long attempts,
    /** The endpoint's last HTTP status; null when it gave none (refused, unreachable, timed out) */
    Long responseStatus,
    /** At most 200 characters of the last answer, or why there was none */
    String responseText,
    Instant createdAt,
    Instant lastAttemptAt,
    Instant nextAttemptAt
) {}
