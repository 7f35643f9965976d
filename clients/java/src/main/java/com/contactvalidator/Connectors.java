package com.contactvalidator;

import java.util.List;
import java.util.Objects;

/** Salesforce and Shopify connectors (docs/connectors.md): {@code client.connectors()}. */
public final class Connectors {
  private final Transport transport;

  Connectors(Transport transport) {
    this.transport = transport;
  }

  /** {@code GET /v1/connectors}. */
  public List<Connector> list() {
    return transport.<ConnectorList>json(Transport.Call.get("/v1/connectors"), ConnectorList.class).connectors();
  }

  /** {@code GET /v1/connectors/{id}}. */
  public Connector get(String connectorId) {
    return transport.json(Transport.Call.get(path(connectorId)), Connector.class);
  }

  /** {@code POST /v1/connectors}: 400 ({@link InvalidRequestException}) lists each setting the platform refuses. */
  public Connector create(ConnectorParams params) {
    return transport.json(Transport.Call.json("POST", "/v1/connectors", params.toJson()), Connector.class);
  }

  /** {@code PATCH /v1/connectors/{id}}: only the members given change. */
  public Connector update(String connectorId, ConnectorParams params) {
    return transport.json(Transport.Call.json("PATCH", path(connectorId), params.toJson()), Connector.class);
  }

  /** {@code DELETE /v1/connectors/{id}}: the connector, its runs and its record hashes. */
  public void delete(String connectorId) {
    transport.json(Transport.Call.delete(path(connectorId)), null);
  }

  /** {@code POST /v1/connectors/{id}/runs}: starts a run now and returns its id (409 while one runs). */
  public String run(String connectorId) {
    return transport.<RunStarted>json(new Transport.Call("POST", path(connectorId) + "/runs"), RunStarted.class).runId();
  }

  /** {@code GET /v1/connectors/{id}/runs}: newest first. */
  public List<ConnectorRun> runs(String connectorId) {
    return transport.<ConnectorRunList>json(Transport.Call.get(path(connectorId) + "/runs"), ConnectorRunList.class).runs();
  }

  private static String path(String connectorId) {
    Objects.requireNonNull(connectorId, "connectorId");
    return "/v1/connectors/" + Paths.segment(connectorId);
  }
}
