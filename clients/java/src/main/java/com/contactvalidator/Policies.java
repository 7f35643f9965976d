// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;
import java.util.Objects;

/** {@code client.policies()}: the policies operations. */
public class Policies {
  final Transport transport;

  Policies(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code GET /v1/policies}: The presets and the account's policies.
   */
  public PolicyList list() {
    Transport.Call call = Transport.Call.json("GET", "/v1/policies", null);
    return transport.json(call, PolicyList.class);
  }

  /**
   * {@code POST /v1/policies}: Make a policy of the account.
   * From a preset ({@code base}), with the rules given changed. Its rules are kept whole: a later version's presets do not change it.
   */
  public Policy create(Map<String, Object> address, Map<String, Object> email, Map<String, Object> phone, String name, String base) {
    String body = new Bodies.Members()
        .put("address", address, false)
        .put("email", email, false)
        .put("phone", phone, false)
        .put("name", name, true)
        .put("base", base, false)
        .json();
    Transport.Call call = Transport.Call.json("POST", "/v1/policies", body);
    return transport.json(call, Policy.class);
  }

  /**
   * {@code POST /v1/policies}: Make a policy of the account.
   * From a preset ({@code base}), with the rules given changed. Its rules are kept whole: a later version's presets do not change it.
   */
  public Policy create(Map<String, ?> body) {
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("POST", "/v1/policies", Json.GSON.toJson(body));
    return transport.json(call, Policy.class);
  }

  /**
   * {@code GET /v1/policies/{policy_id}}: One policy of the account.
   */
  public Policy get(String policyId) {
    Objects.requireNonNull(policyId, "policyId");
    Transport.Call call = Transport.Call.json("GET", "/v1/policies/" + Paths.segment(policyId), null);
    return transport.json(call, Policy.class);
  }

  /**
   * {@code PATCH /v1/policies/{policy_id}}: Change a policy's rules.
   * The rules given change; the others keep their action. Answers made from then on follow it (within a second on every instance).
   */
  public Policy update(String policyId, Map<String, Object> address, Map<String, Object> email, Map<String, Object> phone) {
    Objects.requireNonNull(policyId, "policyId");
    String body = new Bodies.Members()
        .put("address", address, false)
        .put("email", email, false)
        .put("phone", phone, false)
        .json();
    Transport.Call call = Transport.Call.json("PATCH", "/v1/policies/" + Paths.segment(policyId), body);
    return transport.json(call, Policy.class);
  }

  /**
   * {@code PATCH /v1/policies/{policy_id}}: Change a policy's rules.
   * The rules given change; the others keep their action. Answers made from then on follow it (within a second on every instance).
   */
  public Policy update(String policyId, Map<String, ?> body) {
    Objects.requireNonNull(policyId, "policyId");
    Objects.requireNonNull(body, "body");
    Transport.Call call = Transport.Call.json("PATCH", "/v1/policies/" + Paths.segment(policyId), Json.GSON.toJson(body));
    return transport.json(call, Policy.class);
  }

  /**
   * {@code DELETE /v1/policies/{policy_id}}: Delete a policy.
   * Refused (409 {@code policy-conflict}, {@code reason} {@code in_use}) while a live key has it as its default or a connector follows it.
   */
  public void delete(String policyId) {
    Objects.requireNonNull(policyId, "policyId");
    Transport.Call call = Transport.Call.json("DELETE", "/v1/policies/" + Paths.segment(policyId), null);
    transport.json(call, null);
  }
}
