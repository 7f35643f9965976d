// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;

/** The schema {@code ShopifyInstallLink}. */
public record ShopifyInstallLink(
    /** Open it in the browser of the store's owner: it is valid an hour */
    String installUrl,
    Instant expiresAt
) {}
