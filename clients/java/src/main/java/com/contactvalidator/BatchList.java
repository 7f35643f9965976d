// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code BatchList}. */
public record BatchList(
    /** Newest first, the latest 100 */
    List<Batch> batches
) {}
