package com.contactvalidator;

import java.time.Instant;
import java.util.List;

/** {@code GET /v1/account}: the calling key'\''s account. */
public record Account(
    String accountId,
    String name,
    Instant createdAt,
    long balance,
    List<Grant> grants,
    Usage usage,
    List<ApiKey> keys
) {}
