// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code FieldError}. */
public record FieldError(
    /** Dotted path of the field, or {@code (body)} */
    String field,
    String message
) {}
