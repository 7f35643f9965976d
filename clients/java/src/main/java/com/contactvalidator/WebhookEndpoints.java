package com.contactvalidator;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Where the account's events are sent, and what was sent (docs/webhooks.md): {@code client.webhookEndpoints()}. */
public final class WebhookEndpoints {
  private final Transport transport;

  WebhookEndpoints(Transport transport) {
    this.transport = transport;
  }

  /** {@code POST /v1/webhook_endpoints}: the answer carries the signing {@code secret}, this once. */
  public CreatedWebhookEndpoint create(String url, List<String> events) {
    String body = Json.GSON.toJson(Map.of("url", Objects.requireNonNull(url, "url"), "events", List.copyOf(events)));
    return transport.json(Transport.Call.json("POST", "/v1/webhook_endpoints", body), CreatedWebhookEndpoint.class);
  }

  /** {@code GET /v1/webhook_endpoints}: newest first, without secrets. */
  public List<WebhookEndpoint> list() {
    return transport.<WebhookEndpointList>json(Transport.Call.get("/v1/webhook_endpoints"), WebhookEndpointList.class).webhookEndpoints();
  }

  /** {@code DELETE /v1/webhook_endpoints/{id}}: the endpoint and its delivery log; nothing more is sent to it. */
  public void delete(String endpointId) {
    transport.json(Transport.Call.delete(path(endpointId)), null);
  }

  /** {@code GET /v1/webhook_endpoints/{id}/deliveries}: the last 100, newest first. */
  public List<WebhookDelivery> deliveries(String endpointId) {
    return transport.<WebhookDeliveryList>json(Transport.Call.get(path(endpointId) + "/deliveries"), WebhookDeliveryList.class).deliveries();
  }

  /** Sends a delivery again now; the answer is the delivery as that attempt left it. */
  public WebhookDelivery redeliver(String endpointId, String deliveryId) {
    String at = path(endpointId) + "/deliveries/" + Paths.segment(Objects.requireNonNull(deliveryId, "deliveryId")) + "/redeliver";
    return transport.json(new Transport.Call("POST", at), WebhookDelivery.class);
  }

  private static String path(String endpointId) {
    Objects.requireNonNull(endpointId, "endpointId");
    return "/v1/webhook_endpoints/" + Paths.segment(endpointId);
  }
}
