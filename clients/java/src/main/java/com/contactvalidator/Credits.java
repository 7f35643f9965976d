package com.contactvalidator;

/** What a request cost and what is left. */
public record Credits(
    long charged,
    long remaining
) {}
