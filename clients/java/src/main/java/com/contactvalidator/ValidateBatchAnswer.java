// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code ValidateBatchAnswer}. */
public record ValidateBatchAnswer(
    /** One per contact, in the order sent */
    List<Map<String, Object>> results,
    /** How many results carry a {@code problem} instead of an answer */
    long failed,
    /** {@code charged}: the whole call; {@code remaining}: the balance after it */
    Credits credits,
    String requestId,
    long responseMs
) {}
