package com.contactvalidator;

/** A new key: {@code apiKey} is shown this once. */
public record CreatedKey(
    String keyId,
    String apiKey
) {}
