package com.contactvalidator;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The client's per-call cost against a raw HttpClient call of the same request (same headers, an Idempotency-Key
 * each, the answer read whole), 32 calls at once, against the real service started as for the tests, in one run:
 * every worker alternates a raw call and a client call, so that both meet the same load at the same moments.
 *
 *     cd clients/java && mvn -q test-compile exec:java            # -Dbench.calls=3200 -Dbench.rounds=5
 */
public final class Bench {
  static final int CONCURRENCY = 32;
  static final String ADDRESS = "1600 Amphitheatre Pkwy, Mountain View, CA 94043";

  public static void main(String[] args) throws Exception {
    int calls = Integer.getInteger("bench.calls", 3200);
    int rounds = Integer.getInteger("bench.rounds", 5);
    try (TestService service = TestService.start()) {
      String base = service.directUrl;
      ContactValidator client = ContactValidator.builder().apiKey(service.apiKey).baseUrl(base)
          .timeout(Duration.ofSeconds(30)).maxRetries(2).build();
      HttpClient raw = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      String body = ValidateRequest.builder().address(ADDRESS).build().toJson();
      URI uri = URI.create(base + "/v1/validate");
      String auth = "Bearer " + service.apiKey;

      Callable<Object> rawCall = () -> {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
            .header("Authorization", auth).header("User-Agent", "raw-bench").header("Accept", "application/json")
            .header("Content-Type", "application/json").header("Idempotency-Key", UUID.randomUUID().toString())
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> r = raw.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("raw call answered " + r.statusCode());
        return r.body();
      };
      Callable<Object> clientCall = () -> client.validate(ValidateRequest.builder().address(ADDRESS).build());

      ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
      try {
        interleaved(pool, rawCall, clientCall, calls / 2); // warm-up: JIT, connection pools, the service's caches
        long[][] all = {new long[0], new long[0]};
        for (int i = 0; i < rounds; i++) {
          long[][] round = interleaved(pool, rawCall, clientCall, calls);
          System.out.printf("round %d: raw %.1f us, client %.1f us (mean latency, %d calls each)%n",
              i + 1, mean(round[0]) / 1e3, mean(round[1]) / 1e3, round[0].length);
          all[0] = concat(all[0], round[0]);
          all[1] = concat(all[1], round[1]);
        }
        System.out.printf("POST /v1/validate (one US address), %d calls at once, each worker alternating raw and client%n",
            CONCURRENCY);
        report("raw HttpClient", all[0]);
        report("client        ", all[1]);
        System.out.printf("overhead      : %+.1f %% mean latency, %+.1f %% median%n",
            100 * (mean(all[1]) - mean(all[0])) / mean(all[0]),
            100 * (pct(all[1], 50) - pct(all[0], 50)) / pct(all[0], 50));
      } finally {
        pool.shutdownNow();
      }
      System.out.printf("client-side CPU: %.1f us/call to build the body and parse the answer (one thread)%n",
          codecMicros());
    }
    System.exit(0);
  }

  /**
   * {@code calls} raw calls and {@code calls} client calls, CONCURRENCY workers each alternating one and the other,
   * so that both meet the same load on the service and the machine: per-call latencies in nanoseconds.
   */
  static long[][] interleaved(ExecutorService pool, Callable<Object> raw, Callable<Object> client, int calls)
      throws Exception {
    int perWorker = calls / CONCURRENCY;
    List<Future<long[][]>> futures = new ArrayList<>(CONCURRENCY);
    for (int w = 0; w < CONCURRENCY; w++) {
      boolean rawFirst = w % 2 == 0;
      futures.add(pool.submit(() -> {
        long[][] t = {new long[perWorker], new long[perWorker]};
        for (int i = 0; i < perWorker; i++) {
          for (int k = 0; k < 2; k++) {
            boolean isRaw = (k == 0) == rawFirst;
            long start = System.nanoTime();
            (isRaw ? raw : client).call();
            t[isRaw ? 0 : 1][i] = System.nanoTime() - start;
          }
        }
        return t;
      }));
    }
    long[][] out = {new long[0], new long[0]};
    for (Future<long[][]> f : futures) {
      long[][] t = f.get();
      out[0] = concat(out[0], t[0]);
      out[1] = concat(out[1], t[1]);
    }
    return out;
  }

  static void report(String name, long[] ns) {
    System.out.printf("%s: mean %7.1f us, median %7.1f us, p99 %7.1f us (%d calls)%n",
        name, mean(ns) / 1e3, pct(ns, 50) / 1e3, pct(ns, 99) / 1e3, ns.length);
  }

  static double mean(long[] ns) {
    return Arrays.stream(ns).average().orElse(0);
  }

  static double pct(long[] ns, int p) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  static long[] concat(long[] a, long[] b) {
    long[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** What the client adds on its own thread: the request's JSON and the answer's typed parse. */
  static double codecMicros() {
    String answer = "{\"address\":{\"status\":\"plausible\",\"standardized\":\"1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043\","
        + "\"dpv\":\"\",\"zip4\":null,\"country\":\"US\",\"components\":{\"primary_number\":\"1600\",\"street_name\":\"AMPHITHEATRE\","
        + "\"street_suffix\":\"PKWY\",\"city\":\"MOUNTAIN VIEW\",\"state\":\"CA\",\"postal_code\":\"94043\",\"country\":\"US\"},"
        + "\"footnotes\":[\"N#: abbreviations and spelling standardized (USPS Publication 28)\"]},\"email\":null,\"phone\":null,"
        + "\"credits\":{\"charged\":1,\"remaining\":999},\"request_id\":\"req_01a2146fe0dbHlmQp_MW45k\",\"response_ms\":1}";
    int n = 200_000;
    long sink = 0;
    long start = 0;
    for (int pass = 0; pass < 2; pass++) { // the first pass warms up
      start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += ValidateRequest.builder().address(ADDRESS).build().toJson().length();
        sink += Json.<ValidationResult>parse(answer, ValidationResult.class).credits().charged();
      }
    }
    if (sink == 42) System.out.println();
    return (System.nanoTime() - start) / 1e3 / n;
  }
}
