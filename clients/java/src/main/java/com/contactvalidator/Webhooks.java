package com.contactvalidator;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The receiver's check of a delivery (docs/webhooks.md): {@code Webhooks.verify(rawBody, header, secret)} returns the
 * event, or throws {@link WebhookSignatureException}.
 */
public final class Webhooks {
  /** The header a delivery's signature comes in. */
  public static final String SIGNATURE_HEADER = "Contact-Validator-Signature";
  /** How far a signature's timestamp may be from the receiver's clock by default. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private Webhooks() {}

  /** An event as a delivery carries it; {@code created} in Unix seconds. */
  public record WebhookEvent(String id, String type, long created, Map<String, Object> data) {}

  /** A delivery whose signature is missing, malformed, stale or does not verify. */
  public static final class WebhookSignatureException extends ContactValidatorException {
    WebhookSignatureException(String message) {
      super(message, 0, null, null);
    }
  }

  /** {@link #verify(byte[], String, String, Duration, Instant)} with the default tolerance, now. */
  public static WebhookEvent verify(byte[] rawBody, String header, String secret) {
    return verify(rawBody, header, secret, DEFAULT_TOLERANCE, Instant.now());
  }

  /** The raw body as the string received. */
  public static WebhookEvent verify(String rawBody, String header, String secret) {
    return verify(rawBody.getBytes(StandardCharsets.UTF_8), header, secret);
  }

  /**
   * Checks a delivery and returns its event: the raw body exactly as received (before any JSON parsing), the
   * {@code Contact-Validator-Signature} header, and the endpoint's secret. One of the header's {@code v1} values must
   * be the HMAC-SHA256 of {@code "<t>.<raw body>"} under the secret (compared in constant time), and {@code t} within
   * {@code tolerance} of {@code now}.
   */
  public static WebhookEvent verify(byte[] rawBody, String header, String secret, Duration tolerance, Instant now) {
    if (header == null || header.isBlank()) throw new WebhookSignatureException("the delivery has no " + SIGNATURE_HEADER + " header");
    long t = -1;
    List<byte[]> signatures = new ArrayList<>();
    for (String part : header.split(",")) {
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2) continue;
      if (kv[0].equals("t") && t < 0 && kv[1].matches("\\d{1,18}")) t = Long.parseLong(kv[1]);
      if (kv[0].equals("v1") && kv[1].matches("[0-9a-f]{64}")) signatures.add(HexFormat.of().parseHex(kv[1]));
    }
    if (t < 0 || signatures.isEmpty()) throw new WebhookSignatureException("the " + SIGNATURE_HEADER + " header is malformed");
    if (Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
      throw new WebhookSignatureException("the signature's timestamp is more than " + tolerance.toSeconds() + " s from now");
    }
    byte[] expected;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
      expected = mac.doFinal(rawBody);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
    for (byte[] signature : signatures) {
      if (MessageDigest.isEqual(signature, expected)) {
        return Json.GSON.fromJson(new String(rawBody, StandardCharsets.UTF_8), WebhookEvent.class);
      }
    }
    throw new WebhookSignatureException("the signature does not verify with this secret");
  }
}
