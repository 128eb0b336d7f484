package io.agentteams.scheduler.webhook.domain;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs pushes the Standard Webhooks way: HMAC-SHA256 with the secret (the base64 after {@code
 * whsec_}) over {@code id.timestamp.body}, written {@code v1,<base64>}; with several secrets
 * (during a rotation) the signatures are separated by spaces and a receiver accepts any it can
 * verify.
 */
public final class WebhookSigner {

  private static final String PREFIX = "whsec_";

  private WebhookSigner() {}

  /** The {@code webhook-signature} header of a message, one signature per secret. */
  public static String signature(
      List<String> secrets, String messageId, long timestampSeconds, byte[] body) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("a push is signed with at least one secret");
    }
    return secrets.stream()
        .map(secret -> "v1," + sign(secret, messageId, timestampSeconds, body))
        .collect(Collectors.joining(" "));
  }

  /**
   * The {@code webhook-signature} header of a message signed with a key given as bytes, for a
   * receiver that chose its own key (an A2A client's notification token, keyed with its UTF-8
   * bytes) rather than a {@code whsec_} secret.
   */
  public static String keyedSignature(
      byte[] key, String messageId, long timestampSeconds, byte[] body) {
    return "v1," + hmac(key, messageId, timestampSeconds, body);
  }

  /** One base64 HMAC-SHA256 signature. */
  static String sign(String secret, String messageId, long timestampSeconds, byte[] body) {
    byte[] key =
        Base64.getDecoder()
            .decode(secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : secret);
    return hmac(key, messageId, timestampSeconds, body);
  }

  private static String hmac(byte[] key, String messageId, long timestampSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
