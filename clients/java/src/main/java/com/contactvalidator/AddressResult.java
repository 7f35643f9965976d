package com.contactvalidator;

import java.util.List;

/** The address module'\''s verdict. */
public record AddressResult(
    AddressStatus status,
    /** Upper case, one line, postal code included. */
    String standardized,
    Dpv dpv,
    /** {@code "12345-6789"} when the reference data gives the add-on, else {@code null}. */
    String zip4,
    String country,
    AddressComponents components,
    List<String> footnotes
) {}
