// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;

/** Rules to change; those left out keep their action. */
public record PolicyChanges(
    Map<String, Object> address,
    Map<String, Object> email,
    Map<String, Object> phone
) {}
