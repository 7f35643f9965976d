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
    /** The policy every answer's {@code next_action} follows, and so the next action each plugin writes beside the statuses: a preset or one of the account's (docs/api.md#policies); null: the fixed table */
    String policy,
    /** Where reading stopped, per stream; opaque */
    Map<String, Object> watermark,
    /** What the connector's records may take each calendar month (UTC); null: no cap */
    Long creditCapMonthly,
    /** What the connector's records took this calendar month (UTC) */
    long creditsThisMonth,
    ConnectorRun lastRun,
    Instant createdAt,
    Instant updatedAt,
    /** The change stream of a connector with {@code settings.realtime} (a platform's change stream, such as Change Data Capture); null without real time */
    ConnectorStream realtime
) {}
