package com.contactvalidator;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An RFC 9457 problem document as the service answered it: {@code type} (e.g. {@code /problems/batch-not-paused}),
 * {@code title}, {@code status}, {@code detail}, {@code instance}, {@code request_id}, the field {@code errors} of a
 * 400, and every other member (e.g. {@code balance} and {@code required} of a 402, {@code line} of a 422) in
 * {@code extensions}.
 */
public record Problem(
    String type,
    String title,
    int status,
    String detail,
    String instance,
    String requestId,
    List<FieldError> errors,
    Map<String, Object> extensions) {

  private static final Set<String> KNOWN = Set.of("type", "title", "status", "detail", "instance", "request_id", "errors");

  /** The last segment of {@code type}: {@code batch-not-paused}, {@code invalid-csv}, ... */
  public String code() {
    if (type == null) return null;
    int slash = type.lastIndexOf('/');
    return slash >= 0 ? type.substring(slash + 1) : type;
  }

  static Problem fromJson(JsonObject o, int httpStatus, String headerRequestId) {
    List<FieldError> errors = new ArrayList<>();
    JsonElement e = o.get("errors");
    if (e != null && e.isJsonArray()) {
      for (JsonElement item : e.getAsJsonArray()) {
        if (item.isJsonObject()) errors.add(Json.GSON.fromJson(item, FieldError.class));
      }
    }
    Map<String, Object> extensions = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> m : o.entrySet()) {
      if (!KNOWN.contains(m.getKey())) extensions.put(m.getKey(), Json.GSON.fromJson(m.getValue(), Object.class));
    }
    String requestId = string(o, "request_id");
    return new Problem(string(o, "type"), string(o, "title"),
        o.has("status") && o.get("status").isJsonPrimitive() ? o.get("status").getAsInt() : httpStatus,
        string(o, "detail"), string(o, "instance"), requestId != null ? requestId : headerRequestId,
        Collections.unmodifiableList(errors), Collections.unmodifiableMap(extensions));
  }

  static Problem synthetic(int status, String detail, String requestId) {
    return new Problem("about:blank", "HTTP " + status, status, detail, null, requestId, List.of(), Map.of());
  }

  private static String string(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }
}
