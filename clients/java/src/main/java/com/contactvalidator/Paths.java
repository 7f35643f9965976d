package com.contactvalidator;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/** Building paths and query strings. */
final class Paths {
  private Paths() {}

  /** One path segment, percent-encoded (an id never changes the path it is put in). */
  static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String query(Map<String, String> params) {
    StringJoiner q = new StringJoiner("&", "?", "");
    q.setEmptyValue("");
    params.forEach((k, v) -> {
      if (v != null) q.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
    });
    return q.toString();
  }
}
