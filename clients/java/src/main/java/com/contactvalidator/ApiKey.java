package com.contactvalidator;

import java.time.Instant;

/** An API key of the account, as listed (the secret itself is shown only once, at creation). */
public record ApiKey(
    String keyId,
    String prefix,
    Instant createdAt,
    Instant revokedAt,
    /** {@code null} for a secret key. */
    Publishable publishable
) {}
