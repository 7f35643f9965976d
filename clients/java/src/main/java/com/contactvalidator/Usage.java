package com.contactvalidator;

/** Requests and credits per module over the last {@code windowDays} days. */
public record Usage(
    int windowDays,
    ModuleUsage address,
    ModuleUsage email,
    ModuleUsage phone
) {}
