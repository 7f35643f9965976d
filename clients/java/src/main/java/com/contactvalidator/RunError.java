// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code ConnectorRun.errors[]}. */
public record RunError(
    String key,
    String error
) {}
