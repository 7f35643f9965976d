// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code client.connectors()}: the connectors operations (Connectors adds to them). */
public abstract class ConnectorsOperations {
  final Transport transport;

  ConnectorsOperations(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code POST /v1/connectors}: Connect a CRM or a store.
   * Every URL the connector will call must be https on a public address. Credentials are sealed with CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop that a connector (of any account) already connects answers 409 {@code shop-already-connected}: its account disconnects it first, or, when that connector no longer reaches the shop, the app's OAuth install moves it to your account.
   */
  public Connector create(ConnectorParams body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/connectors", body.toJson());
    return transport.json(call, Connector.class);
  }

  /**
   * {@code GET /v1/connectors}: The account's connectors.
   */
  public List<Connector> list() {
    Transport.Call call = Transport.Call.json("GET", "/v1/connectors", null);
    return transport.<ConnectorList>json(call, ConnectorList.class).connectors();
  }

  /**
   * {@code GET /v1/connectors/{connector_id}}: A connector, with its status, last run and watermark.
   * Another account's connector answers 404, exactly like a missing one.
   */
  public Connector get(String connectorId) {
    Objects.requireNonNull(connectorId, "connectorId");
    Transport.Call call = Transport.Call.json("GET", "/v1/connectors/" + Paths.segment(connectorId), null);
    return transport.json(call, Connector.class);
  }

  /**
   * {@code PATCH /v1/connectors/{connector_id}}: Pause, resume or change a connector.
   */
  public Connector update(String connectorId, ConnectorParams body) {
    Objects.requireNonNull(connectorId, "connectorId");
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("PATCH", "/v1/connectors/" + Paths.segment(connectorId), body.toJson());
    return transport.json(call, Connector.class);
  }

  /**
   * {@code DELETE /v1/connectors/{connector_id}}: Delete a connector, its runs and record hashes.
   */
  public void delete(String connectorId) {
    Objects.requireNonNull(connectorId, "connectorId");
    Transport.Call call = Transport.Call.json("DELETE", "/v1/connectors/" + Paths.segment(connectorId), null);
    transport.json(call, null);
  }

  /**
   * {@code POST /v1/connectors/{connector_id}/runs}: Start a run now.
   */
  public RunStarted startRun(String connectorId) {
    Objects.requireNonNull(connectorId, "connectorId");
    Transport.Call call = Transport.Call.json("POST", "/v1/connectors/" + Paths.segment(connectorId) + "/runs", null);
    return transport.json(call, RunStarted.class);
  }

  /**
   * {@code GET /v1/connectors/{connector_id}/runs}: A connector's runs, newest first.
   */
  public List<ConnectorRun> runs(String connectorId, Integer limit, String startingAfter) {
    Objects.requireNonNull(connectorId, "connectorId");
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("limit", limit == null ? null : limit.toString());
    parameters.put("starting_after", startingAfter);
    Transport.Call call = Transport.Call.json("GET", "/v1/connectors/" + Paths.segment(connectorId) + "/runs" + Paths.query(parameters), null);
    return transport.<ConnectorRunList>json(call, ConnectorRunList.class).runs();
  }

  /** {@link #runs} without {@code startingAfter}. */
  public List<ConnectorRun> runs(String connectorId, Integer limit) {
    return runs(connectorId, limit, null);
  }

  /** {@link #runs} without {@code limit}, {@code startingAfter}. */
  public List<ConnectorRun> runs(String connectorId) {
    return runs(connectorId, null, null);
  }

  /**
   * {@code GET /v1/connectors/{connector_id}/runs}, every page: the items of {@link #runs} one at a time, for a for-each loop or {@code stream()}.
   * A page ({@code limit} items) is fetched when the iteration reaches it, after the last item's id; each page is one call with these arguments.
   */
  public PagedIterable<ConnectorRun> runsAll(String connectorId, Integer limit, String startingAfter) {
    Objects.requireNonNull(connectorId, "connectorId");
    return new PagedIterable<>(startingAfter, after -> {
      Map<String, String> parameters = new LinkedHashMap<>();
      parameters.put("limit", limit == null ? null : limit.toString());
      parameters.put("starting_after", after);
      Transport.Call call = Transport.Call.json("GET", "/v1/connectors/" + Paths.segment(connectorId) + "/runs" + Paths.query(parameters), null);
      ConnectorRunList page = transport.<ConnectorRunList>json(call, ConnectorRunList.class);
      return new PagedIterable.Page<>(page.runs(), page.hasMore(), page.nextStartingAfter());
    });
  }

  /** {@link #runsAll} without {@code startingAfter}. */
  public PagedIterable<ConnectorRun> runsAll(String connectorId, Integer limit) {
    return runsAll(connectorId, limit, null);
  }

  /** {@link #runsAll} without {@code limit}, {@code startingAfter}. */
  public PagedIterable<ConnectorRun> runsAll(String connectorId) {
    return runsAll(connectorId, null, null);
  }

  /**
   * {@code POST /v1/connectors/{connector_id}/check}: Check a connector before its first run.
   * Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, missing or read-only fields (the verdict fields the plugin writes, their field-level security), missing access scopes, and webhooks the platform refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every problem at once, each with what to do; 200 whatever it finds. Free of credits.
   */
  public ConnectorCheck check(String connectorId) {
    Objects.requireNonNull(connectorId, "connectorId");
    Transport.Call call = Transport.Call.json("POST", "/v1/connectors/" + Paths.segment(connectorId) + "/check", null);
    return transport.json(call, ConnectorCheck.class);
  }

  /**
   * {@code POST /v1/connectors/shopify/install}: A signed link that installs the Shopify app on a store.
   * Needs the Shopify app configured (503 otherwise: The operator has not set up the Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead.). The store is connected when its owner approves the app and Shopify calls back.
   */
  public ShopifyInstallLink createShopifyInstallLink(String shop, String name, String schedule, Map<String, Object> settings) {
    String body = new Bodies.Members()
        .put("shop", shop, true)
        .put("name", name, false)
        .put("schedule", schedule, false)
        .put("settings", settings, false)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/connectors/shopify/install", body);
    return transport.json(call, ShopifyInstallLink.class);
  }

  /**
   * {@code POST /v1/connectors/shopify/install}: A signed link that installs the Shopify app on a store.
   * Needs the Shopify app configured (503 otherwise: The operator has not set up the Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead.). The store is connected when its owner approves the app and Shopify calls back.
   */
  public ShopifyInstallLink createShopifyInstallLink(Map<String, ?> body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/connectors/shopify/install", Json.GSON.toJson(body));
    return transport.json(call, ShopifyInstallLink.class);
  }
}
