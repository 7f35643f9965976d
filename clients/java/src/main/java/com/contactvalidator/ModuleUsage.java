package com.contactvalidator;

/** One module'\''s usage. */
public record ModuleUsage(
    long requests,
    long credits
) {}
