// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code AddressSuggestion}. */
public record AddressSuggestion(
    /** One line as a form shows it: {@code 6007 APPLEGATE LN, LOUISVILLE, KY 40219} */
    String text,
    /** The delivery line (number and street), or the street alone; null for a place */
    String street,
    String city,
    /** State or province code */
    String state,
    /** ZIP or Canadian postal code; null for a city of several ZIPs or a Canadian FSA */
    String zip,
    String country,
    /** {@code address}: a delivery point of the loaded data (an address file's point, or a number inside a USPS range); {@code street}: a street of a postal code, without a number; {@code place}: a city, or a ZIP's or FSA's place */
    String kind
) {}
