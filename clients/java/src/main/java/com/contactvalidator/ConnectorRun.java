package com.contactvalidator;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One sync of a connector. */
public record ConnectorRun(
    String runId,
    RunStatus status,
    String reason,
    String message,
    /** {@code schedule}, {@code api}, {@code cli} or {@code webhook}. */
    String triggeredBy,
    Instant startedAt,
    Instant finishedAt,
    long recordsRead,
    long recordsValidated,
    long recordsWritten,
    long recordsSkipped,
    long recordsFailed,
    long creditsCharged,
    /** Per record, the platform's reason. */
    List<Map<String, Object>> errors
) {}
