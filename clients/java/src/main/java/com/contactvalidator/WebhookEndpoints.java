// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code client.webhookEndpoints()}: the webhook endpoints operations. */
public class WebhookEndpoints {
  final Transport transport;

  WebhookEndpoints(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code POST /v1/webhook_endpoints}: Register a webhook endpoint.
   * The URL must be https on a public address. The answer carries the signing secret, this once. Each event is POSTed as JSON {@code {"id", "type", "created", "data"}} with {@code Contact-Validator-Signature: t=&lt;unix&gt;,v1=&lt;hex HMAC-SHA256(secret, "&lt;t&gt;.&lt;raw body&gt;")&gt;}; an answer other than 2xx is tried again with back-off for 72 hours. At most 16 endpoints per account. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 {@code owner-only}.
   */
  public CreatedWebhookEndpoint create(String url, List<String> events) {
    String body = new Bodies.Members()
        .put("url", url, true)
        .put("events", events, true)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/webhook_endpoints", body);
    return transport.json(call, CreatedWebhookEndpoint.class);
  }

  /**
   * {@code POST /v1/webhook_endpoints}: Register a webhook endpoint.
   * The URL must be https on a public address. The answer carries the signing secret, this once. Each event is POSTed as JSON {@code {"id", "type", "created", "data"}} with {@code Contact-Validator-Signature: t=&lt;unix&gt;,v1=&lt;hex HMAC-SHA256(secret, "&lt;t&gt;.&lt;raw body&gt;")&gt;}; an answer other than 2xx is tried again with back-off for 72 hours. At most 16 endpoints per account. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 {@code owner-only}.
   */
  public CreatedWebhookEndpoint create(Map<String, ?> body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/webhook_endpoints", Json.GSON.toJson(body));
    return transport.json(call, CreatedWebhookEndpoint.class);
  }

  /**
   * {@code GET /v1/webhook_endpoints}: The account's webhook endpoints.
   */
  public List<WebhookEndpoint> list() {
    Transport.Call call = Transport.Call.json("GET", "/v1/webhook_endpoints", null);
    return transport.<WebhookEndpointList>json(call, WebhookEndpointList.class).webhookEndpoints();
  }

  /**
   * {@code DELETE /v1/webhook_endpoints/{webhook_endpoint_id}}: Delete a webhook endpoint and its delivery log.
   * Nothing more is sent to it, retries included. An owner or admin key only (docs/account.md#key-roles).
   */
  public void delete(String webhookEndpointId) {
    Objects.requireNonNull(webhookEndpointId, "webhookEndpointId");
    Transport.Call call = Transport.Call.json("DELETE", "/v1/webhook_endpoints/" + Paths.segment(webhookEndpointId), null);
    transport.json(call, null);
  }

  /**
   * {@code GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries}: An endpoint's deliveries, newest first.
   */
  public List<WebhookDelivery> deliveries(String webhookEndpointId, Integer limit, String startingAfter) {
    Objects.requireNonNull(webhookEndpointId, "webhookEndpointId");
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("limit", limit == null ? null : limit.toString());
    parameters.put("starting_after", startingAfter);
    Transport.Call call = Transport.Call.json("GET", "/v1/webhook_endpoints/" + Paths.segment(webhookEndpointId) + "/deliveries" + Paths.query(parameters), null);
    return transport.<WebhookDeliveryList>json(call, WebhookDeliveryList.class).deliveries();
  }

  /** {@link #deliveries} without {@code startingAfter}. */
  public List<WebhookDelivery> deliveries(String webhookEndpointId, Integer limit) {
    return deliveries(webhookEndpointId, limit, null);
  }

  /** {@link #deliveries} without {@code limit}, {@code startingAfter}. */
  public List<WebhookDelivery> deliveries(String webhookEndpointId) {
    return deliveries(webhookEndpointId, null, null);
  }

  /**
   * {@code GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries}, every page: the items of {@link #deliveries} one at a time, for a for-each loop or {@code stream()}.
   * A page ({@code limit} items) is fetched when the iteration reaches it, after the last item's id; each page is one call with these arguments.
   */
  public PagedIterable<WebhookDelivery> deliveriesAll(String webhookEndpointId, Integer limit, String startingAfter) {
    Objects.requireNonNull(webhookEndpointId, "webhookEndpointId");
    return new PagedIterable<>(startingAfter, after -> {
      Map<String, String> parameters = new LinkedHashMap<>();
      parameters.put("limit", limit == null ? null : limit.toString());
      parameters.put("starting_after", after);
      Transport.Call call = Transport.Call.json("GET", "/v1/webhook_endpoints/" + Paths.segment(webhookEndpointId) + "/deliveries" + Paths.query(parameters), null);
      WebhookDeliveryList page = transport.<WebhookDeliveryList>json(call, WebhookDeliveryList.class);
      return new PagedIterable.Page<>(page.deliveries(), page.hasMore(), page.nextStartingAfter());
    });
  }

  /** {@link #deliveriesAll} without {@code startingAfter}. */
  public PagedIterable<WebhookDelivery> deliveriesAll(String webhookEndpointId, Integer limit) {
    return deliveriesAll(webhookEndpointId, limit, null);
  }

  /** {@link #deliveriesAll} without {@code limit}, {@code startingAfter}. */
  public PagedIterable<WebhookDelivery> deliveriesAll(String webhookEndpointId) {
    return deliveriesAll(webhookEndpointId, null, null);
  }

  /**
   * {@code POST /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver}: Send a delivery again now.
   * Sends the same event (same {@code id}, a fresh signature) at once, whatever its status, and answers with the delivery as that attempt left it; if it fails, it is tried again with back-off like a first delivery. An owner or admin key only (docs/account.md#key-roles).
   */
  public WebhookDelivery redeliver(String webhookEndpointId, String deliveryId) {
    Objects.requireNonNull(webhookEndpointId, "webhookEndpointId");
    Objects.requireNonNull(deliveryId, "deliveryId");
    Transport.Call call = Transport.Call.json("POST", "/v1/webhook_endpoints/" + Paths.segment(webhookEndpointId) + "/deliveries/" + Paths.segment(deliveryId) + "/redeliver", null);
    return transport.json(call, WebhookDelivery.class);
  }
}
