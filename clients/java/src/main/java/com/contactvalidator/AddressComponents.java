// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** Absent parts are null. */
public record AddressComponents(
    String primaryNumber,
    String streetPredirection,
    String streetName,
    String streetSuffix,
    String streetPostdirection,
    String secondaryDesignator,
    String secondaryNumber,
    String city,
    String state,
    String postalCode,
    String plus4,
    String country,
    /** US/Canada: units Pub 28 keeps off the delivery line ({@code BLDG A}, {@code FL 3}) */
    List<String> extraSecondaries,
    /** Puerto Rico's {@code URB} name */
    String urbanization,
    /** US/Canada: what the delivery line is */
    String deliveryType,
    /** US: the ZIP code's county (GeoNames) */
    String county,
    /** Canada: {@code STN MAIN}, {@code SUCC CENTRE-VILLE} */
    String deliveryInstallation
) {}
