package com.contactvalidator;

/** The phone module'\''s verdict. */
public record PhoneResult(
    PhoneStatus status,
    PhoneType type,
    /** Carrier name, or {@code null}. */
    String carrier,
    CarrierSource carrierSource,
    String e164,
    String country,
    /** The national format, e.g. {@code (415) 555-0123}. */
    String national,
    String reason
) {}
