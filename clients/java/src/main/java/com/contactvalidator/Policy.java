// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.Map;

/** The schema {@code Policy}. */
public record Policy(
    Map<String, Object> address,
    Map<String, Object> email,
    Map<String, Object> phone,
    String policyId,
    String name,
    /** The preset it was made from */
    String base,
    Instant createdAt,
    Instant updatedAt
) {}
