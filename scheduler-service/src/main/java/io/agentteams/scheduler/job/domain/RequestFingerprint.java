package io.agentteams.scheduler.job.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What makes two submissions "the same request" for an idempotency key: the caller's scope, the
 * recipients (in any order), the text and, for a hand-off, the job it was sent from. A retry with
 * the same key and fingerprint returns the jobs the first one created; the same key with another
 * fingerprint is refused.
 */
public final class RequestFingerprint {

  private RequestFingerprint() {}

  public static String of(
      String scope, Collection<String> recipients, String text, @Nullable UUID sentFrom) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      update(digest, scope);
      recipients.stream().sorted().forEach(recipient -> update(digest, recipient));
      update(digest, "\u0000text");
      update(digest, text);
      update(digest, sentFrom == null ? "-" : sentFrom.toString());
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private static void update(MessageDigest digest, String part) {
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    digest.update((byte) (bytes.length >>> 24));
    digest.update((byte) (bytes.length >>> 16));
    digest.update((byte) (bytes.length >>> 8));
    digest.update((byte) bytes.length);
    digest.update(bytes);
  }
}
