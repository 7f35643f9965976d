package com.contactvalidator;

/**
 * Salesforce and Shopify connectors (docs/connectors.md): {@code client.connectors()}. The operations are generated
 * (ConnectorsOperations); here is {@code run}, the name {@code startRun} had, answering the run's id.
 */
public final class Connectors extends ConnectorsOperations {
  Connectors(Transport transport) {
    super(transport);
  }

  /** {@code POST /v1/connectors/{id}/runs}: starts a run now and returns its id (409 while one runs). */
  public String run(String connectorId) {
    return startRun(connectorId).runId();
  }
}
