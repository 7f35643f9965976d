// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code Account.usage.address}. */
public record ModuleUsage(
    long requests,
    long credits
) {}
