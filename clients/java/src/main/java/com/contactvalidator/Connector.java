// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.time.Instant;
import java.util.Map;

/** The schema {@code Connector}. */
public record Connector(
    String connectorId,
    /** The platform: one of the create body variants */
    String type,
    String name,
    ConnectorStatus status,
    String reason,
    String reasonDetail,
    /** A cron expression */
    String schedule,
    /** The platform's settings, defaults filled in */
    Map<String, Object> settings,
    Map<String, Object> writeBack,
    /** Where reading stopped, per stream; opaque */
    Map<String, Object> watermark,
    ConnectorRun lastRun,
    Instant createdAt,
    Instant updatedAt
) {}
