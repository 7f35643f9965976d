// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.List;

/** The schema {@code Account}. */
public record Account(
    String accountId,
    String name,
    Instant createdAt,
    /** Usable credits: what the unexpired grants have left */
    long balance,
    List<Grant> grants,
    /** Requests charged and credits spent per module over the window */
    Usage usage,
    List<ApiKey> keys,
    LowBalanceAlert lowBalanceAlert
) {}
