// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** {@code listening}: an instance is subscribed to the change events; {@code dropped}: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); {@code starting}: no instance has subscribed yet; {@code stopped}: the connector is not active. A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error. */
public enum StreamStatus implements ApiEnum {
  LISTENING("listening"),
  DROPPED("dropped"),
  STARTING("starting"),
  STOPPED("stopped"),
  /** A value added to the service after this client was released. */
  UNRECOGNIZED(null);

  private final String value;

  StreamStatus(String value) {
    this.value = value;
  }

  @Override
  public String value() {
    return value;
  }
}
