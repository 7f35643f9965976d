// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code CreatedKey}. */
public record CreatedKey(
    String keyId,
    /** Shown this once; only its hash is kept */
    String apiKey,
    Publishable publishable,
    /** {@code true} for a test key; absent otherwise */
    Boolean test,
    /** Its default policy, when one was given */
    String policy
) {}
