// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** What confirmed the address (docs/api.md#address-evidence): {@code delivery_point} (USPS data holds it), {@code address_point} (an address file: NAD, OpenAddresses, NAR, RRAD), {@code street_range} (a TIGER number range of the street: not a house), {@code street} (the street is known in the postal code, the number not), {@code postal_code} (postal code, city and state agree), {@code none}. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum AddressEvidence implements ApiEnum {
  DELIVERY_POINT("delivery_point"),
  ADDRESS_POINT("address_point"),
  STREET_RANGE("street_range"),
  STREET("street"),
  POSTAL_CODE("postal_code"),
  NONE("none"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  AddressEvidence(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
