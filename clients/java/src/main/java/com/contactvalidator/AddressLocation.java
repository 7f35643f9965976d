// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code AddressLocation}. */
public record AddressLocation(
    double lat,
    double lon,
    /** {@code rooftop}: on the building (NAD Placement, NAR); {@code parcel}: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); {@code interpolated}: along a TIGER street segment by the house number; {@code postal_code}: the postal code's centre (GeoNames, about 1 km) */
    LocationPrecision precision
) {}
