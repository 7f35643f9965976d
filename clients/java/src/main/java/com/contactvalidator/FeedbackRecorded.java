// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;

/** The schema {@code FeedbackRecorded}. */
public record FeedbackRecorded(
    /** The address, normalized as the answers normalize it */
    String email,
    String outcome,
    /** Its domain, in lower-case A-labels */
    String domain,
    /** The account's outcomes at the domain, one per address (its latest) */
    Map<String, Object> domainOutcomes,
    /** What the domain's catch-all answers now carry (docs/email.md#feedback) */
    Map<String, Object> catchAllScore
) {}
