// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** {@code rooftop}: on the building (NAD Placement, NAR); {@code parcel}: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); {@code interpolated}: along a TIGER street segment by the house number; {@code postal_code}: the postal code's centre (GeoNames, about 1 km). A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum LocationPrecision implements ApiEnum {
  ROOFTOP("rooftop"),
  PARCEL("parcel"),
  INTERPOLATED("interpolated"),
  POSTAL_CODE("postal_code"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  LocationPrecision(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
