// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** The schema {@code ConnectorStream}. */
public record ConnectorStream(
    /** {@code listening}: an instance is subscribed to the change events; {@code dropped}: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); {@code starting}: no instance has subscribed yet; {@code stopped}: the connector is not active */
    StreamStatus status,
    /** While {@code dropped}, the platform's reason */
    String detail
) {}
