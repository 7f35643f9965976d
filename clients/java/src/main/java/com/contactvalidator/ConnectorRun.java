// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.List;

/** The schema {@code ConnectorRun}. */
public record ConnectorRun(
    String runId,
    RunStatus status,
    /** Why a run failed or paused */
    String reason,
    /** The platform's own words, for the operator */
    String message,
    String triggeredBy,
    Instant startedAt,
    Instant finishedAt,
    /** Distinct records read */
    long recordsRead,
    long recordsValidated,
    long recordsWritten,
    /** Records whose checked fields did not change: free */
    long recordsSkipped,
    long recordsFailed,
    long creditsCharged,
    /** Per record, the platform's reason */
    List<RunError> errors
) {}
