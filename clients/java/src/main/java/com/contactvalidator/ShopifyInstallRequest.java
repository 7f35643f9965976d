// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;

/** The schema {@code ShopifyInstallRequest}. */
public record ShopifyInstallRequest(
    String shop,
    String name,
    String schedule,
    Map<String, Object> settings
) {}
