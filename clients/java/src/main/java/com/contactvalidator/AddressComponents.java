package com.contactvalidator;

/** The parts of a parsed address (absent parts are {@code null}). */
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
    String urbanization,
    String deliveryType,
    String county
) {}
