package com.contactvalidator;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Objects;

/** The account's API keys: {@code client.keys()}. */
public final class Keys {
  private final Transport transport;

  Keys(Transport transport) {
    this.transport = transport;
  }

  /** {@code GET /v1/keys}. */
  public List<ApiKey> list() {
    return transport.<KeyList>json(Transport.Call.get("/v1/keys"), KeyList.class).keys();
  }

  /** {@code POST /v1/keys}: a new secret key, shown this once. */
  public CreatedKey create() {
    return transport.json(new Transport.Call("POST", "/v1/keys"), CreatedKey.class);
  }

  /**
   * {@code POST /v1/keys} with {@code test}: a test key ({@code cv_test_…}) that validates with network checks off and
   * is never charged; its answers say {@code test()}.
   */
  public CreatedKey createTest() {
    JsonObject body = new JsonObject();
    body.addProperty("test", true);
    return transport.json(Transport.Call.json("POST", "/v1/keys", Json.GSON.toJson(body)), CreatedKey.class);
  }

  /** {@code POST /v1/keys} with {@code publishable}: a key for web pages of these origins (phone module if asked). */
  public CreatedKey createPublishable(List<String> origins, boolean phone) {
    JsonObject body = new JsonObject();
    body.addProperty("publishable", true);
    JsonArray list = new JsonArray();
    origins.forEach(list::add);
    body.add("origins", list);
    body.addProperty("phone", phone);
    return transport.json(Transport.Call.json("POST", "/v1/keys", Json.GSON.toJson(body)), CreatedKey.class);
  }

  /** {@code DELETE /v1/keys/{id}}: revokes a key of this account. */
  public RevokedKey revoke(String keyId) {
    Objects.requireNonNull(keyId, "keyId");
    return transport.json(Transport.Call.delete("/v1/keys/" + Paths.segment(keyId)), RevokedKey.class);
  }

}
