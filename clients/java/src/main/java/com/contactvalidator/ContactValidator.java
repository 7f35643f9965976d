package com.contactvalidator;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The contact-validator client: configure it once, share it (it is thread-safe and keeps its connections).
 *
 * <pre>{@code
 * ContactValidator client = ContactValidator.builder()
 *     .apiKey(System.getenv("CV_API_KEY"))
 *     .baseUrl("http://localhost:8080")
 *     .timeout(Duration.ofSeconds(30))     // total per call, retries included
 *     .maxRetries(2)
 *     .build();
 * ValidationResult r = client.validate(ValidateRequest.builder().email("someone@example.com").build());
 * }</pre>
 */
public final class ContactValidator {
  public static final String VERSION = "0.1.0";

  private final Transport transport;
  private final Keys keys;
  private final Batches batches;
  private final Connectors connectors;
  private final WebhookEndpoints webhookEndpoints;

  private ContactValidator(Builder b) {
    HttpClient http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder()
        // HTTP/1.1: plain-http servers do not speak h2c, and a pool of keep-alive connections is what the API expects.
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(b.timeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    String base = b.baseUrl.endsWith("/") ? b.baseUrl.substring(0, b.baseUrl.length() - 1) : b.baseUrl;
    this.transport = new Transport(http, base, b.apiKey, b.userAgent, b.timeout, b.maxRetries);
    this.keys = new Keys(transport);
    this.batches = new Batches(transport);
    this.connectors = new Connectors(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code POST /v1/validate}: checks an address, an e-mail and/or a phone. Sent with a fresh {@code Idempotency-Key}
   * that stays the same on every retry, so a retried call is never charged twice.
   */
  public ValidationResult validate(ValidateRequest request) {
    Objects.requireNonNull(request, "request");
    Transport.Call call = Transport.Call.json("POST", "/v1/validate", request.toJson()).withIdempotencyKey();
    return transport.json(call, ValidationResult.class);
  }

  /**
   * {@code GET /v1/address/autocomplete}: addresses and places that start with what has been typed ({@code 6007
   * Applegate La}), best first: delivery points of the service's reference data, streets, cities and ZIPs. Free (no
   * credits); a publishable key may call it too.
   *
   * @param country {@code "US"} or {@code "CA"} keeps that country's suggestions; null for both
   * @param limit 1 to 10; 0 leaves the service's default, 5
   */
  public List<AddressSuggestion> autocompleteAddress(String query, String country, int limit) {
    Objects.requireNonNull(query, "query");
    Map<String, String> params = new LinkedHashMap<>();
    params.put("q", query);
    params.put("country", country);
    params.put("limit", limit == 0 ? null : Integer.toString(limit));
    Transport.Call call = Transport.Call.get("/v1/address/autocomplete" + Paths.query(params));
    return transport.<AddressSuggestions>json(call, AddressSuggestions.class).suggestions();
  }

  /** {@link #autocompleteAddress(String, String, int)} with the service's defaults: both countries, 5 suggestions. */
  public List<AddressSuggestion> autocompleteAddress(String query) {
    return autocompleteAddress(query, null, 0);
  }

  /** {@code GET /v1/account}: the balance, the grants, the usage and the keys of the calling key's account. */
  public Account account() {
    return transport.json(Transport.Call.get("/v1/account"), Account.class);
  }

  /** The account's API keys. */
  public Keys keys() {
    return keys;
  }

  /** CSV batches: upload a file, follow it, download it enriched. */
  public Batches batches() {
    return batches;
  }

  /**
   * {@code PATCH /v1/account}: the low-balance alert's threshold in credits ({@code null} removes it); the account as
   * it is now.
   */
  public Account updateAccount(Long lowBalanceThreshold) {
    String body = "{\"low_balance_threshold\":" + (lowBalanceThreshold == null ? "null" : lowBalanceThreshold.toString()) + "}";
    return transport.json(Transport.Call.json("PATCH", "/v1/account", body), Account.class);
  }

  /** Where the account's events are sent ({@link Webhooks#verify} checks what arrives). */
  public WebhookEndpoints webhookEndpoints() {
    return webhookEndpoints;
  }

  /** Salesforce and Shopify connectors and their runs. */
  public Connectors connectors() {
    return connectors;
  }

  public static final class Builder {
    private String apiKey;
    private String baseUrl = "http://localhost:8080";
    private Duration timeout = Duration.ofSeconds(30);
    private int maxRetries = 2;
    private String userAgent = "contact-validator-java/" + VERSION;
    private HttpClient httpClient;

    private Builder() {}

    /** A secret key ({@code cv_live_…}) or a publishable one ({@code cv_pub_…}, validate only). Required. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Where the service is, e.g. {@code https://api.example.com}; default {@code http://localhost:8080}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The total time one call may take, retries and their waits included; default 30 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** How many times a failed attempt may be repeated (0 turns retries off); default 2. */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** The User-Agent header; default {@code contact-validator-java/VERSION}. */
    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    /** Your own HttpClient (proxy, SSL context, executor); by default the client makes one. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public ContactValidator build() {
      if (apiKey == null || apiKey.isBlank()) throw new IllegalArgumentException("apiKey is required");
      if (baseUrl == null || !(baseUrl.startsWith("http://") || baseUrl.startsWith("https://"))) {
        throw new IllegalArgumentException("baseUrl must be an http:// or https:// URL");
      }
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive");
      }
      if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be 0 or more");
      if (userAgent == null || userAgent.isBlank()) throw new IllegalArgumentException("userAgent must not be blank");
      return new ContactValidator(this);
    }
  }
}
