package com.contactvalidator;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The contact-validator client: configure it once, share it (it is thread-safe and keeps its connections). Its
 * methods and resources are generated from the OpenAPI description (ContactValidatorOperations); here is the
 * configuration.
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
public final class ContactValidator extends ContactValidatorOperations {
  public static final String VERSION = "0.1.0";

  private ContactValidator(Builder b) {
    super(transportOf(b));
  }

  private static Transport transportOf(Builder b) {
    HttpClient http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder()
        // HTTP/1.1: plain-http servers do not speak h2c, and a pool of keep-alive connections is what the API expects.
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(b.timeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    String base = b.baseUrl.endsWith("/") ? b.baseUrl.substring(0, b.baseUrl.length() - 1) : b.baseUrl;
    return new Transport(http, base, b.apiKey, b.userAgent, b.timeout, b.maxRetries);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@link #autocompleteAddress(String, String, Integer)} as it was before generation: a {@code limit} of 0 leaves the
   * service's default, 5.
   */
  public java.util.List<AddressSuggestion> autocompleteAddress(String query, String country, int limit) {
    return autocompleteAddress(query, country, limit == 0 ? null : Integer.valueOf(limit));
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
