package com.contactvalidator;

import java.time.Instant;

/** A CSV batch (docs/batches.md). {@code columns} and {@code delimiter} are set on the answer to an upload. */
public record Batch(
    String batchId,
    String name,
    BatchStatus status,
    /** Why paused or failed, e.g. {@code credits_exhausted}. */
    String reason,
    long rowsTotal,
    long rowsDone,
    long rowsFailed,
    long creditsCharged,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt,
    Instant expiresAt,
    Long etaSeconds,
    BatchColumns columns,
    String delimiter
) {}
