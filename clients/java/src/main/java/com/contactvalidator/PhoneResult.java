// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code PhoneResult}. */
public record PhoneResult(
    PhoneStatus status,
    PhoneType type,
    String carrier,
    /** {@code live}: current carrier from a live look-up; {@code allocation}: original holder of the number block; {@code none} */
    CarrierSource carrierSource,
    String e164,
    String country,
    /** Why the number is invalid */
    String reason,
    /** National format */
    String national
) {}
