// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code BatchList}. */
public record BatchList(
    /** Newest first, a page (docs/api.md#lists) */
    List<Batch> batches,
    /** Whether older items follow this page */
    boolean hasMore,
    /** While {@code has_more}: the last item's id, to send as {@code starting_after} for the next page; else null */
    String nextStartingAfter
) {}
