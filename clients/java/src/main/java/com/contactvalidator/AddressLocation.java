// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code AddressLocation}. */
public record AddressLocation(
    double lat,
    double lon,
    /** {@code rooftop}: the address point's own coordinates; {@code parcel}: its parcel's centre (NAD Placement); {@code interpolated}: along a TIGER street segment by the house number; {@code postal_code}: the postal code's centre (GeoNames, about 1 km) */
    LocationPrecision precision
) {}
