// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** The schema {@code RevokedKey}. */
public record RevokedKey(
    String keyId,
    Instant revokedAt
) {}
