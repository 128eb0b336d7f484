package io.agentteams.devstack.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's verification of a Standard Webhooks request, written from the specification alone
 * (it shares no code with the scheduler's signer): the signed content is {@code
 * <webhook-id>.<webhook-timestamp>.<body>}; the key is the base64 after {@code whsec_}; the {@code
 * webhook-signature} header holds space-separated {@code v1,<base64 HMAC-SHA256>} signatures, any
 * one of which may match (compared in constant time); a timestamp further than the tolerance from
 * the receiver's clock is refused, so a captured request cannot be replayed later.
 */
final class StandardWebhooksVerifier {

  static final Duration TOLERANCE = Duration.ofMinutes(5);

  private final List<byte[]> keys;

  /** A verifier that accepts a signature made with any of these secrets. */
  StandardWebhooksVerifier(List<String> secrets) {
    this.keys =
        secrets.stream()
            .map(
                secret -> {
                  if (!secret.startsWith("whsec_")) {
                    throw new IllegalArgumentException("not a Standard Webhooks secret");
                  }
                  return Base64.getDecoder().decode(secret.substring("whsec_".length()));
                })
            .toList();
  }

  /** Why the request must be refused, or empty when it verifies at {@code now}. */
  Optional<String> refusal(
      String id, String timestamp, String signatureHeader, byte[] body, Instant now) {
    if (id == null || id.isBlank() || timestamp == null || signatureHeader == null) {
      return Optional.of("missing webhook-id, webhook-timestamp or webhook-signature");
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      return Optional.of("webhook-timestamp is not a number of seconds");
    }
    Duration skew = Duration.between(Instant.ofEpochSecond(seconds), now).abs();
    if (skew.compareTo(TOLERANCE) > 0) {
      return Optional.of("timestamp outside the tolerance: a replay, or a clock far off");
    }
    byte[] signed = concat((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
    for (String candidate : signatureHeader.split(" ")) {
      int comma = candidate.indexOf(',');
      if (comma < 0 || !candidate.substring(0, comma).equals("v1")) {
        continue;
      }
      byte[] presented;
      try {
        presented = Base64.getDecoder().decode(candidate.substring(comma + 1));
      } catch (IllegalArgumentException e) {
        continue;
      }
      for (byte[] key : keys) {
        if (MessageDigest.isEqual(hmac(key, signed), presented)) {
          return Optional.empty();
        }
      }
    }
    return Optional.of("no signature matches");
  }

  private static byte[] hmac(byte[] key, byte[] content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(content);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] joined = new byte[a.length + b.length];
    System.arraycopy(a, 0, joined, 0, a.length);
    System.arraycopy(b, 0, joined, a.length, b.length);
    return joined;
  }
}
