package io.agentteams.scheduler.runtime.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A webhook agent as the scheduler knows it: where its jobs are pushed and the secrets they are
 * signed with.
 *
 * @param ownerId the owner whose catalog holds it
 * @param agentId the agent
 * @param endpoint its URL
 * @param secret the current signing secret
 * @param previousSecret the secret before the last rotation, signed with until {@code
 *     previousValidUntil}
 * @param previousValidUntil when the previous secret stops being used
 */
public record PushAgent(
    String ownerId,
    String agentId,
    String endpoint,
    String secret,
    @Nullable String previousSecret,
    @Nullable Instant previousValidUntil) {

  public PushAgent {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(secret, "secret");
  }

  /** The secrets a push made at {@code now} is signed with: the current one, then the previous. */
  public List<String> signingSecrets(Instant now) {
    List<String> secrets = new ArrayList<>(2);
    secrets.add(secret);
    if (previousSecret != null && previousValidUntil != null && previousValidUntil.isAfter(now)) {
      secrets.add(previousSecret);
    }
    return secrets;
  }
}
