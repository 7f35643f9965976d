package com.contactvalidator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of {@code POST /v1/connectors} (type, name, schedule, settings, credentials, write_back, policy) or of
 * {@code PATCH /v1/connectors/{id}} (any of name, schedule, settings, credentials, write_back, policy, status). Settings,
 * credentials and write-back differ per platform, so they are maps with the service's member names
 * ({@code login_url}, {@code access_token}, {@code overwrite_address}, ...).
 */
public final class ConnectorParams {
  private final Map<String, Object> body;

  private ConnectorParams(Map<String, Object> body) {
    this.body = body;
  }

  public static Builder builder() {
    return new Builder();
  }

  String toJson() {
    return Json.GSON.toJson(body);
  }

  public static final class Builder {
    private final Map<String, Object> body = new LinkedHashMap<>();

    private Builder() {}

    /** {@code salesforce} or {@code shopify} (creation only). */
    public Builder type(String type) {
      body.put("type", type);
      return this;
    }

    public Builder name(String name) {
      body.put("name", name);
      return this;
    }

    /** A cron expression, e.g. {@code "*}{@code /15 * * * *"}. */
    public Builder schedule(String schedule) {
      body.put("schedule", schedule);
      return this;
    }

    public Builder settings(Map<String, ?> settings) {
      body.put("settings", settings);
      return this;
    }

    /** Write-only: stored encrypted, never returned. */
    public Builder credentials(Map<String, ?> credentials) {
      body.put("credentials", credentials);
      return this;
    }

    public Builder writeBack(Map<String, ?> writeBack) {
      body.put("write_back", writeBack);
      return this;
    }

    /** Credits the connector may take each calendar month (UTC); reached, it pauses ({@code credit_cap_reached}). */
    public Builder creditCapMonthly(long credits) {
      body.put("credit_cap_monthly", credits);
      return this;
    }

    /**
     * The policy every answer's {@code next_action} follows, and so what is written on the platform: a preset
     * ({@code default}, {@code signup}, {@code checkout}, {@code crm_cleanup}) or one of the account's
     * ({@code client.policies().list()}); not set: the fixed table.
     */
    public Builder policy(String policy) {
      body.put("policy", policy);
      return this;
    }

    /** {@link ConnectorStatus#PAUSED} or {@link ConnectorStatus#ACTIVE} (update only). */
    public Builder status(ConnectorStatus status) {
      body.put("status", status.value());
      return this;
    }

    public ConnectorParams build() {
      return new ConnectorParams(new LinkedHashMap<>(body));
    }
  }
}
