// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** One e-mail to the owner and one {@code credits.low} webhook each time the balance falls below the threshold */
public record LowBalanceAlert(
    /** Alert when the balance falls below this many credits; null: no alert */
    Long threshold,
    /** false once an alert went out, until the balance is back at or above the threshold */
    boolean armed,
    Instant lastAlertAt
) {}
