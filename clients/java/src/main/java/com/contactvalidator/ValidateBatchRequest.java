// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code ValidateBatchRequest}. */
public record ValidateBatchRequest(
    /** 1 to 100 contacts, each a /v1/validate body with its {@code input_id}; more is 422 {@code too-many-contacts} */
    List<Map<String, Object>> contacts
) {}
