package io.agentteams.team.agents.domain;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The secrets a webhook agent's pushes are signed with (Standard Webhooks: {@code whsec_} and 32
 * random bytes in base64). After a rotation the previous secret stays in use beside the new one for
 * an overlap, so pushes carry both signatures and the agent can switch without refusing any.
 *
 * @param current the secret every push is signed with
 * @param previous the secret before the last rotation, while it is still signed with
 * @param previousValidUntil when the previous secret stops being used
 */
public record WebhookSecrets(
    String current, @Nullable String previous, @Nullable Instant previousValidUntil) {

  /** The prefix Standard Webhooks gives a signing secret. */
  public static final String PREFIX = "whsec_";

  private static final int SECRET_BYTES = 32;

  public WebhookSecrets {
    Objects.requireNonNull(current, "current");
    if ((previous == null) != (previousValidUntil == null)) {
      throw new IllegalArgumentException("a previous secret needs the time it stops being used");
    }
  }

  /** A fresh secret, with nothing before it. */
  public static WebhookSecrets fresh(SecureRandom random) {
    return new WebhookSecrets(secret(random), null, null);
  }

  /** A new current secret; the one it replaces is still signed with for {@code overlap}. */
  public WebhookSecrets rotated(SecureRandom random, Instant now, Duration overlap) {
    return new WebhookSecrets(secret(random), current, now.plus(overlap));
  }

  /** These secrets as of {@code now}: a previous secret whose overlap ended is dropped. */
  public WebhookSecrets asOf(Instant now) {
    return previousValidUntil != null && !previousValidUntil.isAfter(now)
        ? new WebhookSecrets(current, null, null)
        : this;
  }

  private static String secret(SecureRandom random) {
    byte[] bytes = new byte[SECRET_BYTES];
    random.nextBytes(bytes);
    return PREFIX + Base64.getEncoder().encodeToString(bytes);
  }
}
