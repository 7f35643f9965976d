// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code UsageDays}. */
public record UsageDays(
    List<Map<String, Object>> days
) {}
