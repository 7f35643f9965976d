// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code PolicyList}. */
public record PolicyList(
    /** The named presets, the same on every service ({@code default} is the fixed table) */
    List<Map<String, Object>> presets,
    /** The account's own, by name */
    List<Policy> policies
) {}
