package com.contactvalidator;

import java.time.Instant;

/** A revoked key. */
public record RevokedKey(
    String keyId,
    Instant revokedAt
) {}
