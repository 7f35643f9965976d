package com.contactvalidator;

/** The answer of {@code POST /v1/validate}: one object per module asked for ({@code null} for a module not asked for). */
public record ValidationResult(
    AddressResult address,
    EmailResult email,
    PhoneResult phone,
    /** {@code null} for a publishable key. */
    Credits credits,
    String requestId,
    long responseMs
) {}
