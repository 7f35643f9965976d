package com.contactvalidator;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Sends one call: the attempts, their retries, and the mapping of an error answer to an exception.
 *
 * <p>What is retried (never past the call's total timeout): 429 and 503 on every call (the service did nothing),
 * honouring {@code Retry-After}; connection errors and other 5xx on calls that are safe to repeat (GET, DELETE, and
 * POST /v1/validate, which carries an {@code Idempotency-Key} that stays the same on every attempt, so the service
 * answers a repeat from its record instead of charging again). A body that cannot be sent twice (an InputStream
 * upload) is never retried.
 */
final class Transport {
  private static final long BACKOFF_BASE_MS = 250;
  private static final long BACKOFF_CAP_MS = 8_000;
  private static final long RETRY_AFTER_CAP_MS = 60_000;

  private final HttpClient http;
  private final String baseUrl;
  private final String authorization;
  private final String userAgent;
  private final Duration timeout;
  private final int maxRetries;

  Transport(HttpClient http, String baseUrl, String apiKey, String userAgent, Duration timeout, int maxRetries) {
    this.http = http;
    this.baseUrl = baseUrl;
    this.authorization = "Bearer " + apiKey;
    this.userAgent = userAgent;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
  }

  /** One call: what to send, and how safe it is to send again. */
  static final class Call {
    final String method;
    final String path;
    Supplier<HttpRequest.BodyPublisher> body;
    String contentType;
    /** Connection errors and 5xx may be retried: the call has no effect twice. */
    boolean idempotent;
    /** The body can be sent again (429/503 may be retried). */
    boolean replayable = true;
    String idempotencyKey;

    Call(String method, String path) {
      this.method = method;
      this.path = path;
      this.idempotent = method.equals("GET") || method.equals("DELETE");
    }

    static Call get(String path) {
      return new Call("GET", path);
    }

    static Call delete(String path) {
      return new Call("DELETE", path);
    }

    static Call json(String method, String path, String json) {
      Call c = new Call(method, path);
      if (json != null) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        c.body = () -> HttpRequest.BodyPublishers.ofByteArray(bytes);
        c.contentType = "application/json";
      }
      return c;
    }

    /** Makes a POST safe to repeat with an Idempotency-Key generated once for all its attempts. */
    Call withIdempotencyKey() {
      this.idempotencyKey = UUID.randomUUID().toString();
      this.idempotent = true;
      return this;
    }
  }

  /** A call answered with a JSON document, parsed as {@code type} ({@code null} for no body). */
  <T> T json(Call call, java.lang.reflect.Type type) {
    HttpResponse<byte[]> response = send(call, HttpResponse.BodyHandlers.ofByteArray(), b -> b);
    byte[] body = response.body();
    if (type == null || body == null || body.length == 0) return null;
    return Json.parse(new String(body, StandardCharsets.UTF_8), type);
  }

  /** A call answered with a stream (a batch result): the caller closes it. */
  InputStream stream(Call call) {
    return send(call, HttpResponse.BodyHandlers.ofInputStream(), Transport::drain).body();
  }

  private static byte[] drain(InputStream in) {
    try (in) {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  private <T> HttpResponse<T> send(Call call, HttpResponse.BodyHandler<T> handler, Function<T, byte[]> errorBody) {
    long deadline = System.nanoTime() + timeout.toNanos();
    URI uri = URI.create(baseUrl + call.path);
    for (int attempt = 0; ; attempt++) {
      long remainingNanos = deadline - System.nanoTime();
      if (remainingNanos <= 0) throw timedOut(call, null);
      HttpRequest request = request(call, uri, remainingNanos);
      ContactValidatorException failure;
      long waitMs;
      try {
        // send(), not sendAsync().get(): the answer is handed over on the thread that read it, one thread switch
        // fewer per call (measurable at 32 calls at once; see Bench). The request's timeout is what is left of the
        // call's: it runs until the answer's headers arrive.
        HttpResponse<T> response = http.send(request, handler);
        int status = response.statusCode();
        if (status < 400) return response;
        Long retryAfter = retryAfterSeconds(response);
        failure = ContactValidatorException.of(problem(response, errorBody.apply(response.body())), retryAfter);
        if (!retryable(call, status, failure)) throw failure;
        waitMs = retryAfter != null ? Math.min(retryAfter * 1000, RETRY_AFTER_CAP_MS) : backoff(attempt);
      } catch (HttpTimeoutException e) {
        throw timedOut(call, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ApiConnectionException("interrupted: " + call.method + " " + call.path, false, e);
      } catch (IOException e) {
        failure = new ApiConnectionException(
            "connection failed: " + call.method + " " + call.path + ": " + e, false, e);
        if (!(call.idempotent && call.replayable)) throw failure;
        waitMs = backoff(attempt);
      }
      if (attempt >= maxRetries) throw failure;
      // Never wait past the deadline: when the wait would end after it, the error is the answer.
      if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs) >= deadline) throw failure;
      sleep(waitMs);
    }
  }

  private HttpRequest request(Call call, URI uri, long remainingNanos) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(Duration.ofNanos(remainingNanos))
        .header("Authorization", authorization)
        .header("User-Agent", userAgent)
        .header("Accept", "application/json");
    if (call.idempotencyKey != null) b.header("Idempotency-Key", call.idempotencyKey);
    if (call.contentType != null) b.header("Content-Type", call.contentType);
    b.method(call.method, call.body != null ? call.body.get() : HttpRequest.BodyPublishers.noBody());
    return b.build();
  }

  private static boolean retryable(Call call, int status, ContactValidatorException failure) {
    if (!call.replayable) return false;
    if (status == 429 || status == 503) return true;
    // The first attempt of this very request is still being processed (its connection dropped): ask again.
    if (status == 409 && call.idempotencyKey != null && "idempotency-key-in-use".equals(failure.problem().code())) {
      return true;
    }
    return status >= 500 && call.idempotent;
  }

  /** Exponential backoff with jitter: 250 ms, 500 ms, 1 s, ... up to 8 s, each drawn between half and all of it. */
  private static long backoff(int attempt) {
    long ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS << Math.min(attempt, 20));
    return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiConnectionException("interrupted while waiting to retry", false, e);
    }
  }

  private ApiConnectionException timedOut(Call call, Throwable cause) {
    return new ApiConnectionException(
        "timed out after " + timeout.toMillis() + " ms (retries included): " + call.method + " " + call.path, true, cause);
  }

  /** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
  static Long retryAfterSeconds(HttpResponse<?> response) {
    String value = response.headers().firstValue("Retry-After").orElse(null);
    if (value == null) return null;
    value = value.trim();
    try {
      return Math.max(0, Long.parseLong(value));
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
        return Math.max(0, Duration.between(ZonedDateTime.now(at.getZone()), at).toSeconds());
      } catch (RuntimeException notDate) {
        return null;
      }
    }
  }

  private static Problem problem(HttpResponse<?> response, byte[] body) {
    int status = response.statusCode();
    String requestId = response.headers().firstValue("X-Request-Id").orElse(null);
    String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
    String contentType = response.headers().firstValue("Content-Type").orElse("");
    if (contentType.contains("json") && !text.isBlank()) {
      try {
        return Problem.fromJson(Json.parseObject(text), status, requestId);
      } catch (RuntimeException notJson) {
        // fall through: described from the status
      }
    }
    String detail = text.isBlank() ? null : text.substring(0, Math.min(text.length(), 300));
    return Problem.synthetic(status, detail, requestId);
  }
}
