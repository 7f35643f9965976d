package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the real service cannot easily be made to do: a 402, a slow answer, a 500, an unknown vocabulary value. */
class LocalServerTest {
  interface Handler {
    void handle(HttpExchange exchange, int attempt) throws Exception;
  }

  HttpServer server;
  volatile Handler handler;
  final AtomicInteger attempts = new AtomicInteger();
  final List<String> idempotencyKeys = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", exchange -> {
      try (exchange) {
        exchange.getRequestBody().readAllBytes();
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        if (key != null) idempotencyKeys.add(key);
        handler.handle(exchange, attempts.incrementAndGet());
      } catch (Exception e) {
        // the client gave up (timeout): nothing to answer
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  ContactValidator client(Duration timeout) {
    return ContactValidator.builder().apiKey("cv_live_test").baseUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .timeout(timeout).maxRetries(2).build();
  }

  static void answer(HttpExchange x, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", contentType);
    x.sendResponseHeaders(status, bytes.length);
    x.getResponseBody().write(bytes);
  }

  @Test
  void whenCreditsDoNotCover_then402InsufficientCreditsWithBalanceAndRequired() {
    handler = (x, n) -> answer(x, 402, "application/problem+json", "{\"type\":\"/problems/insufficient-credits\","
        + "\"title\":\"The account's usable credits do not cover the request\",\"status\":402,"
        + "\"detail\":\"needs 3, has 1\",\"balance\":1,\"required\":3,\"request_id\":\"req_402\"}");

    InsufficientCreditsException e = assertThrows(InsufficientCreditsException.class,
        () -> client(Duration.ofSeconds(5)).validate(ValidateRequest.builder().phone("+14155550123").build()));

    assertEquals(402, e.statusCode());
    assertEquals(1L, e.balance());
    assertEquals(3L, e.required());
    assertEquals("req_402", e.requestId());
    assertEquals("needs 3, has 1", e.detail());
    assertEquals(1, attempts.get(), "a 402 is not retried");
  }

  @Test
  void whenTheServiceIsSlowerThanTheTimeout_thenApiConnectionExceptionWithinTheTimeout() {
    handler = (x, n) -> {
      Thread.sleep(3_000);
      answer(x, 200, "application/json", "{}");
    };
    long start = System.nanoTime();

    ApiConnectionException e = assertThrows(ApiConnectionException.class,
        () -> client(Duration.ofMillis(400)).validate(ValidateRequest.builder().email("a@example.com").build()));

    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e.isTimeout());
    assertEquals(0, e.statusCode());
    assertTrue(ms < 1_500, "the timeout bounds the whole call: " + ms + " ms");
  }

  @Test
  void whenValidateMeets500s_thenItIsRetriedWithTheSameIdempotencyKey() {
    handler = (x, n) -> {
      if (n < 3) answer(x, 500, "application/problem+json", "{\"type\":\"/problems/internal\",\"status\":500}");
      else answer(x, 200, "application/json", "{\"email\":{\"status\":\"valid\",\"risk\":\"low\",\"smtp\":\"deliverable\"},"
          + "\"address\":null,\"phone\":null,\"credits\":{\"charged\":1,\"remaining\":9},\"request_id\":\"req_x\",\"response_ms\":1}");
    };

    ValidationResult r = client(Duration.ofSeconds(10)).validate(ValidateRequest.builder().email("a@example.com").build());

    assertEquals(EmailStatus.VALID, r.email().status());
    assertEquals(3, attempts.get());
    assertEquals(3, idempotencyKeys.size());
    assertEquals(1, idempotencyKeys.stream().distinct().count(), "one key for all attempts: " + idempotencyKeys);
  }

  @Test
  void whenANonIdempotentPostMeetsA500_thenItIsNotRetried() {
    handler = (x, n) -> answer(x, 500, "application/problem+json", "{\"type\":\"/problems/internal\",\"status\":500}");

    ApiException e = assertThrows(ApiException.class, () -> client(Duration.ofSeconds(5)).connectors().run("conn_1"));

    assertEquals(500, e.statusCode());
    assertEquals(1, attempts.get());
  }

  @Test
  void whenTheAnswerIsNotAProblemDocument_thenTheExceptionStillSaysWhat() {
    handler = (x, n) -> answer(x, 502, "text/html", "<html>bad gateway</html>");

    ApiException e = assertThrows(ApiException.class, () -> client(Duration.ofSeconds(5)).batches().list());

    assertEquals(502, e.statusCode());
    assertTrue(e.detail().contains("bad gateway"));
    assertEquals(3, attempts.get(), "a GET is retried on 5xx");
  }

  @Test
  void whenTheServiceAnswersAVocabularyValueThisVersionDoesNotKnow_thenItReadsAsUnrecognized() {
    handler = (x, n) -> answer(x, 200, "application/json", "{\"address\":{\"status\":\"teleported\",\"dpv\":\"Q\"},"
        + "\"email\":{\"status\":\"valid\",\"risk\":\"extreme\",\"smtp\":\"quantum\",\"some_new_field\":1},"
        + "\"phone\":{\"status\":\"valid\",\"type\":\"satellite\",\"carrier_source\":\"oracle\"},"
        + "\"credits\":null,\"request_id\":\"req_y\",\"response_ms\":1}");

    ValidationResult r = client(Duration.ofSeconds(5)).validate(ValidateRequest.builder().email("a@example.com").build());

    assertEquals(AddressStatus.UNRECOGNIZED, r.address().status());
    assertEquals(Dpv.UNRECOGNIZED, r.address().dpv());
    assertEquals(EmailStatus.VALID, r.email().status());
    assertEquals(EmailRisk.UNRECOGNIZED, r.email().risk());
    assertEquals(SmtpVerdict.UNRECOGNIZED, r.email().smtp());
    assertEquals(PhoneType.UNRECOGNIZED, r.phone().type());
    assertEquals(CarrierSource.UNRECOGNIZED, r.phone().carrierSource());
    assertNotNull(r.requestId());
  }

  @Test
  void whenSentTheClientIdentifiesItself() {
    List<String> seen = new CopyOnWriteArrayList<>();
    handler = (x, n) -> {
      seen.add(x.getRequestHeaders().getFirst("User-Agent") + "|" + x.getRequestHeaders().getFirst("Authorization"));
      answer(x, 200, "application/json", "{\"keys\":[]}");
    };

    ContactValidator.builder().apiKey("cv_live_abc").baseUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/")
        .userAgent("my-app/2.0").build().keys().list();

    assertEquals(List.of("my-app/2.0|Bearer cv_live_abc"), seen);
  }
}
