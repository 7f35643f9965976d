package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RealService.class)
class WebhooksTest {
  static ContactValidator client;
  static String accountId;

  @BeforeAll
  static void start(TestService s) {
    client = s.client().build();
    accountId = s.accountId;
  }

  record Received(byte[] body, String signature) {}

  @Test
  void whenTheBalanceFallsBelowTheThreshold_thenTheDeliveryVerifiesAndNothingAlteredPasses() throws Exception {
    // Arrange: a receiver on 127.0.0.1 keeping each raw body and signature.
    List<Received> received = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/hooks", exchange -> {
      received.add(new Received(exchange.getRequestBody().readAllBytes(), exchange.getRequestHeaders().getFirst(Webhooks.SIGNATURE_HEADER)));
      byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, ok.length);
      exchange.getResponseBody().write(ok);
      exchange.close();
    });
    receiver.start();
    String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";
    CreatedWebhookEndpoint endpoint = client.webhookEndpoints().create(url, List.of("credits.low"));
    try {
      // Act: a threshold above the balance is crossed at once.
      Account account = client.updateAccount(100_000_000L);
      for (int i = 0; i < 200 && received.isEmpty(); i++) Thread.sleep(50);
      Received first = received.get(0);
      Webhooks.WebhookEvent event = Webhooks.verify(first.body(), first.signature(), endpoint.secret());

      // Assert
      assertEquals(100_000_000L, account.lowBalanceAlert().threshold());
      assertEquals("credits.low", event.type());
      assertEquals(accountId, event.data().get("account_id"));
      byte[] altered = new String(first.body(), StandardCharsets.UTF_8).replace("credits.low", "credits.lox").getBytes(StandardCharsets.UTF_8);
      assertThrows(Webhooks.WebhookSignatureException.class, () -> Webhooks.verify(altered, first.signature(), endpoint.secret()));
      assertThrows(Webhooks.WebhookSignatureException.class, () -> Webhooks.verify(first.body(), first.signature(), "whsec_someone_else"));
      assertThrows(Webhooks.WebhookSignatureException.class, () -> Webhooks.verify(first.body(), null, endpoint.secret()));
      Webhooks.WebhookSignatureException stale = assertThrows(Webhooks.WebhookSignatureException.class,
          () -> Webhooks.verify(first.body(), first.signature(), endpoint.secret(), Duration.ofMinutes(5), Instant.now().plusSeconds(301)));
      assertTrue(stale.getMessage().contains("timestamp"));
      assertTrue(client.webhookEndpoints().list().stream().anyMatch(e -> e.id().equals(endpoint.id())));
      WebhookDelivery logged = client.webhookEndpoints().deliveries(endpoint.id()).get(0);
      assertEquals(event.id(), logged.eventId());
      WebhookDelivery again = client.webhookEndpoints().redeliver(endpoint.id(), logged.id());
      assertEquals("succeeded", again.status());
      assertEquals(2, again.attempts());
    } finally {
      client.updateAccount(null);
      client.webhookEndpoints().delete(endpoint.id());
      receiver.stop(0);
    }
    assertThrows(NotFoundException.class, () -> client.webhookEndpoints().deliveries(endpoint.id()));
  }

  @Test
  void whenTheUrlIsNotAUrl_then400NamesTheField() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> client.webhookEndpoints().create("not a url", List.of("batch.completed")));
    assertEquals("url", e.fieldErrors().get(0).field());
  }
}
