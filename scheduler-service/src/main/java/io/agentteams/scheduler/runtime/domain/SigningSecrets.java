package io.agentteams.scheduler.runtime.domain;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A webhook agent's signing secrets as the scheduler received them, opened from their seal.
 *
 * @param current the secret every push is signed with
 * @param previous the secret before the last rotation, while it is still signed with
 */
public record SigningSecrets(String current, @Nullable String previous) {

  public SigningSecrets {
    Objects.requireNonNull(current, "current");
  }
}
