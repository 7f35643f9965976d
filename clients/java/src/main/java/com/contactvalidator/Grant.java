package com.contactvalidator;

import java.time.Instant;

/** A credit grant: the free grant, a pack bought, or an admin grant. */
public record Grant(
    String id,
    String kind,
    long credits,
    long remaining,
    Double priceUsd,
    Instant createdAt,
    Instant expiresAt,
    boolean expired
) {}
