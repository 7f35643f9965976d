package com.contactvalidator;

import com.google.gson.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real service for the tests and the bench: {@code node --import tsx clients/testing/start-service.ts} run from the
 * repository root (two folders up, or {@code CV_REPO_ROOT}), on a throw-away database, with a fault proxy in front.
 * It stops when its stdin closes.
 */
final class TestService implements AutoCloseable {
  final String url;
  final String directUrl;
  final String apiKey;
  final String accountId;
  final String controlUrl;
  private final Process process;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private boolean closed;

  private TestService(Process process, JsonObject info) {
    this.process = process;
    this.url = info.get("url").getAsString();
    this.directUrl = info.get("direct_url").getAsString();
    this.apiKey = info.get("api_key").getAsString();
    this.accountId = info.get("account_id").getAsString();
    this.controlUrl = info.get("control_url").getAsString();
  }

  static TestService start() throws Exception {
    String configured = System.getenv("CV_REPO_ROOT");
    Path root = (configured != null ? Path.of(configured) : Path.of("").toAbsolutePath().resolve("../..")).normalize();
    if (!Files.exists(root.resolve("clients/testing/start-service.ts"))) {
      throw new IllegalStateException("no clients/testing/start-service.ts under " + root + " (set CV_REPO_ROOT)");
    }
    Process process = new ProcessBuilder("node", "--import", "tsx", "clients/testing/start-service.ts")
        .directory(root.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        return out.readLine();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    String first;
    try {
      first = line.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException("the test service did not start", e);
    }
    if (first == null) {
      process.destroyForcibly();
      throw new IllegalStateException("the test service exited before serving (exit " + process.waitFor() + ")");
    }
    TestService service = new TestService(process, Json.parseObject(first));
    Runtime.getRuntime().addShutdownHook(new Thread(service::close));
    return service;
  }

  /** A client of the fault proxy, with short waits so that the suite stays fast. */
  ContactValidator.Builder client() {
    return ContactValidator.builder().apiKey(apiKey).baseUrl(url).timeout(Duration.ofSeconds(15)).maxRetries(2);
  }

  /** The next {@code count} requests through the proxy get {@code fault}: 503, 429, drop_before, drop_after. */
  void fault(String fault, int count) throws Exception {
    control("{\"fault\":\"" + fault + "\",\"count\":" + count + "}");
  }

  /** The proxy's {"forwarded", "faulted", "pending"} counts. */
  JsonObject counts() throws Exception {
    return control(null);
  }

  private JsonObject control(String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(controlUrl)).timeout(Duration.ofSeconds(5));
    if (body != null) b.POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return Json.parseObject(r.body());
  }

  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    try {
      OutputStream stdin = process.getOutputStream();
      stdin.close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroy();
      if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (IOException | InterruptedException e) {
      process.destroyForcibly();
    }
  }
}
