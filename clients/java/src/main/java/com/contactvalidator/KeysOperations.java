// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code client.keys()}: the keys operations (Keys adds to them). */
public abstract class KeysOperations {
  final Transport transport;

  KeysOperations(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code GET /v1/keys}: The account's API keys.
   */
  public List<ApiKey> list() {
    Transport.Call call = Transport.Call.json("GET", "/v1/keys", null);
    return transport.<KeyList>json(call, KeyList.class).keys();
  }

  /**
   * {@code POST /v1/keys}: Create an API key.
   * The key is in the answer once, never again.
   */
  public CreatedKey create(Boolean publishable, List<String> origins, Boolean phone, Boolean test, String policy) {
    String body = new Bodies.Members()
        .put("publishable", publishable, false)
        .put("origins", origins, false)
        .put("phone", phone, false)
        .put("test", test, false)
        .put("policy", policy, false)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/keys", body);
    return transport.json(call, CreatedKey.class);
  }

  /**
   * {@code POST /v1/keys}: Create an API key.
   * The key is in the answer once, never again.
   */
  public CreatedKey create(Map<String, ?> body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/keys", Json.GSON.toJson(body));
    return transport.json(call, CreatedKey.class);
  }

  /**
   * {@code DELETE /v1/keys/{key_id}}: Revoke an API key.
   * It stops working at once. Another account's key answers 404, like a missing one.
   */
  public RevokedKey revoke(String keyId) {
    Objects.requireNonNull(keyId, "keyId");
    Transport.Call call = Transport.Call.json("DELETE", "/v1/keys/" + Paths.segment(keyId), null);
    return transport.json(call, RevokedKey.class);
  }
}
