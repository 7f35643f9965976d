// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code ConnectorCheck}. */
public record ConnectorCheck(
    /** No problem found: the connector can run */
    boolean ok,
    List<Map<String, Object>> problems
) {}
