// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** The schema {@code Grant}. */
public record Grant(
    String id,
    String kind,
    long credits,
    long remaining,
    Double priceUsd,
    Instant createdAt,
    Instant expiresAt,
    boolean expired
) {}
