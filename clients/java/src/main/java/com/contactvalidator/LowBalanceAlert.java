// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** One e-mail to the owner and one {@code credits.low} webhook each time the balance falls below the threshold, at most 3 a UTC day */
public record LowBalanceAlert(
    /** Alert when the balance falls below this many credits; null: no alert */
    Long threshold,
    /** false once an alert went out, until credits added bring the balance back at or above the threshold */
    boolean armed,
    Instant lastAlertAt
) {}
