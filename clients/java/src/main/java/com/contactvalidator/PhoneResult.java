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
    /** Why the number is invalid: {@code too_short}, {@code too_long}, {@code invalid_length}, {@code invalid_country_code}, {@code missing_country_code}, {@code invalid_for_region}, {@code not_a_number}, {@code empty}, {@code emergency_number} ({@code 911}, {@code 112}, …), {@code short_code} ({@code 411}, an SMS short code) */
    String reason,
    /** National format */
    String national,
    /** What to do with the answer (docs/api.md#next_action): {@code accept} it as it is; {@code confirm} it with the person (a correction, a suggestion, a guess or something not checked: {@code unknown}, {@code catch_all}, {@code partial}, …); {@code fix}: something is {@code invalid} */
    NextAction nextAction
) {}
