// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code ConnectorCheck}. */
public record ConnectorCheck(
    /** No problem keeps the connector from running (warnings may remain) */
    boolean ok,
    List<Map<String, Object>> problems
) {}
