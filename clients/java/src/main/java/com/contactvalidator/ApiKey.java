// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** The schema {@code ApiKeyInfo}. */
public record ApiKey(
    String keyId,
    /** The first characters of the key, to recognise it; the key itself is shown only at creation */
    String prefix,
    Instant createdAt,
    Instant revokedAt,
    /** Present for a publishable key */
    Publishable publishable,
    /** A test key ({@code cv_test_…}, docs/account.md#test-keys) */
    boolean test,
    /** Its default policy, when it has one (docs/api.md#policies) */
    String policy
) {}
