package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RealService.class)
class ConnectorsTest {
  static ContactValidator client;

  @BeforeAll
  static void start(TestService s) {
    client = s.client().build();
  }

  @Test
  void whenAConnectorIsCreatedUpdatedRunAndDeleted_thenEachStepAnswersTyped() {
    // An org on a closed local port: the run starts (and later fails to log in), which is all this test needs.
    Connector created = client.connectors().create(ConnectorParams.builder()
        .type("salesforce").name("Java org").schedule("*/15 * * * *")
        .settings(Map.of("login_url", "http://127.0.0.1:1", "api_version", "62.0", "objects", List.of("Contact")))
        .credentials(Map.of("client_id", "id", "client_secret", "secret"))
        .writeBack(Map.of("overwrite_address", false))
        .build());

    assertTrue(created.connectorId().startsWith("conn_"));
    assertEquals(ConnectorStatus.ACTIVE, created.status());
    assertEquals("http://127.0.0.1:1", created.settings().get("login_url"));
    assertEquals(false, created.writeBack().get("overwrite_address"));
    assertNull(created.lastRun());
    assertTrue(client.connectors().list().stream().anyMatch(c -> c.connectorId().equals(created.connectorId())));

    Connector paused = client.connectors().update(created.connectorId(),
        ConnectorParams.builder().status(ConnectorStatus.PAUSED).name("Java org (paused)").build());
    assertEquals(ConnectorStatus.PAUSED, paused.status());
    assertEquals("Java org (paused)", client.connectors().get(created.connectorId()).name());

    String runId = client.connectors().run(created.connectorId());
    assertTrue(runId.startsWith("run_"));
    List<ConnectorRun> runs = client.connectors().runs(created.connectorId());
    assertFalse(runs.isEmpty());
    assertEquals(runId, runs.get(0).runId());
    assertEquals("api", runs.get(0).triggeredBy());

    client.connectors().delete(created.connectorId());
    assertThrows(NotFoundException.class, () -> client.connectors().get(created.connectorId()));
  }

  @Test
  void whenTheSettingsAreRefused_then400ListsTheFields() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client.connectors().create(
        ConnectorParams.builder().type("shopify").name("x").schedule("*/15 * * * *")
            .settings(Map.of("shop", 42)).credentials(Map.of()).build()));

    assertEquals(400, e.statusCode());
    assertFalse(e.fieldErrors().isEmpty());
  }
}
