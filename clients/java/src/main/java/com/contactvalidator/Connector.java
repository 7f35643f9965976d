package com.contactvalidator;

import java.time.Instant;
import java.util.Map;

/** A Salesforce or Shopify connector (docs/connectors.md). Credentials are write-only and never come back. */
public record Connector(
    String connectorId,
    String type,
    String name,
    ConnectorStatus status,
    /** e.g. {@code credits_exhausted}, {@code auth_failed}. */
    String reason,
    String reasonDetail,
    String schedule,
    Map<String, Object> settings,
    Map<String, Object> writeBack,
    Map<String, Object> watermark,
    ConnectorRun lastRun,
    Instant createdAt,
    Instant updatedAt
) {}
