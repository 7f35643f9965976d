// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The client's own methods and its resources; ContactValidator adds the configuration. */
public abstract class ContactValidatorOperations {
  final Transport transport;
  private final Keys keys;
  private final Batches batches;
  private final Policies policies;
  private final Connectors connectors;
  private final WebhookEndpoints webhookEndpoints;
  private final EmailChecks emailChecks;
  private final Feedback feedback;

  ContactValidatorOperations(Transport transport) {
    this.transport = transport;
    this.keys = new Keys(transport);
    this.batches = new Batches(transport);
    this.policies = new Policies(transport);
    this.connectors = new Connectors(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.emailChecks = new EmailChecks(transport);
    this.feedback = new Feedback(transport);
  }

  /** The keys operations. */
  public Keys keys() {
    return keys;
  }

  /** The batches operations. */
  public Batches batches() {
    return batches;
  }

  /** The policies operations. */
  public Policies policies() {
    return policies;
  }

  /** The connectors operations. */
  public Connectors connectors() {
    return connectors;
  }

  /** The webhook endpoints operations. */
  public WebhookEndpoints webhookEndpoints() {
    return webhookEndpoints;
  }

  /** The email checks operations. */
  public EmailChecks emailChecks() {
    return emailChecks;
  }

  /** The feedback operations. */
  public Feedback feedback() {
    return feedback;
  }

  /**
   * {@code POST /v1/validate}: Validate an address, an e-mail address and a phone number.
   * Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts (e-mail 1, US/Canadian address 1, other address 3, phone 2, landline 3); an {@code unknown} e-mail is refunded. A publishable key ({@code cv_pub_…}) may call this endpoint only, from one of its origins. A test key ({@code cv_test_…}) is answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing and gets {@code "test": true}. {@code next_action} says what to do with the answer: {@code accept}, {@code confirm} or {@code fix}.
   */
  public ValidationResult validate(ValidateRequest body, String policy) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("policy", policy);
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/validate" + Paths.query(parameters), body.toJson()).withIdempotencyKey();
    return transport.json(call, ValidationResult.class);
  }

  /** {@link #validate} without {@code policy}. */
  public ValidationResult validate(ValidateRequest body) {
    return validate(body, null);
  }

  /**
   * {@code POST /v1/validate/batch}: Validate up to 100 contacts in one call.
   * Each contact is a /v1/validate body with an {@code input_id} of yours, echoed back with its answer; up to 100 contacts, checked together within one time budget, priced and charged each as /v1/validate would be, once each. A contact that cannot be answered (the credits ran out before it, an engine fault) gets its {@code problem} in its place and is not charged; the others are answered (HTTP 200, {@code failed} counts them). An {@code Idempotency-Key} covers the whole call: a retry replays the answer and charges nothing again. Secret keys only.
   */
  public ValidateBatchAnswer validateBatch(List<Map<String, Object>> contacts, String policy) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("policy", policy);
    String body = new Bodies.Members()
        .put("contacts", contacts, true)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/validate/batch" + Paths.query(parameters), body).withIdempotencyKey();
    return transport.json(call, ValidateBatchAnswer.class);
  }

  /** {@link #validateBatch} without {@code policy}. */
  public ValidateBatchAnswer validateBatch(List<Map<String, Object>> contacts) {
    return validateBatch(contacts, null);
  }

  /**
   * {@code GET /v1/address/autocomplete}: Suggest addresses as a person types.
   * Delivery points of the loaded reference data (the embedded RRAD sample, and the OpenAddresses, NAR and USPS files an operator imported) and places of the postal data (GeoNames ZIP codes and Canadian FSAs) whose written form starts with {@code q}, best first. Free: no credits are charged; rate-limited per key (and per client address for a publishable key, which may call it from its origins). The reference data is the service's, the same for every account.
   */
  public List<AddressSuggestion> autocompleteAddress(String query, String country, Integer limit) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("q", query);
    parameters.put("country", country);
    parameters.put("limit", limit == null ? null : limit.toString());
    Transport.Call call = Transport.Call.json("GET", "/v1/address/autocomplete" + Paths.query(parameters), null);
    return transport.<AddressSuggestions>json(call, AddressSuggestions.class).suggestions();
  }

  /** {@link #autocompleteAddress} without {@code limit}. */
  public List<AddressSuggestion> autocompleteAddress(String query, String country) {
    return autocompleteAddress(query, country, null);
  }

  /** {@link #autocompleteAddress} without {@code country}, {@code limit}. */
  public List<AddressSuggestion> autocompleteAddress(String query) {
    return autocompleteAddress(query, null, null);
  }

  /**
   * {@code GET /v1/account}: The key's own account.
   * Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).
   */
  public Account account() {
    Transport.Call call = Transport.Call.json("GET", "/v1/account", null);
    return transport.json(call, Account.class);
  }

  /**
   * {@code PATCH /v1/account}: Change the account's settings.
   * {@code low_balance_threshold}: when the balance falls below it, the owner gets one e-mail and the endpoints one {@code credits.low} webhook, and no more until credits added bring the balance back at or above it (changing the threshold does not), at most 3 a UTC day. A new threshold is checked at once. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 {@code owner-only}.
   */
  public Account updateAccount(Long lowBalanceThreshold) {
    String body = new Bodies.Members()
        .put("low_balance_threshold", lowBalanceThreshold, true)
        .json();
    Transport.Call call = Transport.Call.json("PATCH", "/v1/account", body);
    return transport.json(call, Account.class);
  }

  /**
   * {@code GET /v1/usage}: Usage per module per day.
   * UTC days from {@code from} to {@code to} (inclusive, at most 366; by default the last 30), every day listed, zeros included.
   */
  public JsonArray getUsage(String from, String to) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("from", from);
    parameters.put("to", to);
    Transport.Call call = Transport.Call.json("GET", "/v1/usage" + Paths.query(parameters), null);
    return transport.<JsonObject>json(call, JsonObject.class).getAsJsonArray("days");
  }

  /** {@link #getUsage} without {@code to}. */
  public JsonArray getUsage(String from) {
    return getUsage(from, null);
  }

  /** {@link #getUsage} without {@code from}, {@code to}. */
  public JsonArray getUsage() {
    return getUsage(null, null);
  }
}
