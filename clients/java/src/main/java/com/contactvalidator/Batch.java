// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.Map;

/** The schema {@code Batch}. */
public record Batch(
    String batchId,
    String name,
    BatchStatus status,
    /** {@code credits_exhausted} for a paused batch; why, for a failed one */
    String reason,
    long rowsTotal,
    /** Rows processed, the failed ones included */
    long rowsDone,
    long rowsFailed,
    long creditsCharged,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt,
    /** When the file and results are deleted (BATCH_RETENTION_DAYS) */
    Instant expiresAt,
    Long etaSeconds,
    /** GET /v1/batches/{batch_id} only: its e-mail answers that arrive later (docs/batches.md#answers-that-arrive-later) */
    Map<String, Object> emailChecks,
    /** The columns read, as named or as detected from the header */
    BatchColumns columns,
    /** The delimiter detected: {@code ,}, {@code ;} or tab */
    String delimiter
) {}
