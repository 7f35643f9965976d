// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** Requests charged and credits spent per module over the window */
public record Usage(
    long windowDays,
    ModuleUsage address,
    ModuleUsage email,
    ModuleUsage phone
) {}
