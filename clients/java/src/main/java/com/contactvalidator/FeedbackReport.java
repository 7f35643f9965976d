// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code FeedbackReport}. */
public record FeedbackReport(
    /** The address the mail went to */
    String email,
    /** {@code bounced}: a hard bounce (5xx: no such mailbox); {@code delivered}; {@code complained}: delivered, and marked as spam */
    String outcome
) {}
