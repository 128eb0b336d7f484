package io.agentteams.contracts.agent;

import io.agentteams.contracts.EventPayload;
import org.jspecify.annotations.Nullable;

/**
 * How an agent of an owner's catalog runs now: registered, replaced, its webhook secret rotated, or
 * deleted ({@link #DELETED}: the agent is gone, and so must be its endpoint and secrets). Published
 * on {@code Topics.AGENT_RUNTIMES} only (never on the topics the gateway relays to people), keyed
 * by {@link #key}, for the scheduler, which pushes jobs to webhook agents and signs them with these
 * secrets. The secrets are never on the topic in plaintext: they travel sealed for the scheduler
 * alone ({@link #sealedWebhookSecrets}).
 *
 * @param ownerId the owner whose catalog holds the agent
 * @param agentId the agent
 * @param runtimeKind {@code pull}, {@code webhook}, {@code a2a}, or {@link #DELETED}
 * @param endpoint where a webhook or A2A agent is reached
 * @param sealedWebhookSecrets for webhook agents, a compact JWE (ECDH-ES+A256KW, A256GCM) sealed to
 *     the scheduler's public key, its {@code kid} naming that key and its protected header the
 *     {@code owner_id} and {@code agent_id} of this record; it holds {@link #CURRENT} (the secret
 *     pushes are signed with) and, after a rotation, {@link #PREVIOUS}, still signed with too until
 *     {@code previousValidUntil}, so the agent can switch without missing a push
 * @param previousValidUntil when the previous secret stops being used (ISO-8601)
 * @param version raised by every change of the agent's runtime; a consumer ignores older ones
 */
public record AgentRuntimeChanged(
    String ownerId,
    String agentId,
    String runtimeKind,
    @Nullable String endpoint,
    @Nullable String sealedWebhookSecrets,
    @Nullable String previousValidUntil,
    long version)
    implements EventPayload {

  public static final String TYPE = "AgentRuntimeChanged";

  /** The sealed payload's field of the secret pushes are signed with. */
  public static final String CURRENT = "current";

  /** The sealed payload's field of the secret before the last rotation. */
  public static final String PREVIOUS = "previous";

  /** The protected header parameter naming the owner a sealed secret belongs to. */
  public static final String OWNER_HEADER = "owner_id";

  /** The protected header parameter naming the agent a sealed secret belongs to. */
  public static final String AGENT_HEADER = "agent_id";

  /** The runtime kind of a deleted agent: nothing runs it any more. */
  public static final String DELETED = "deleted";

  /** Whether the agent was deleted. */
  public boolean deleted() {
    return DELETED.equals(runtimeKind);
  }

  /** The Kafka key of an agent's runtime events: one owner's agent, in order. */
  public static String key(String ownerId, String agentId) {
    return "agent:" + ownerId + "/" + agentId;
  }

  @Override
  public String eventType() {
    return TYPE;
  }

  /** Version 2: the secrets travel sealed; version 1 carried them in plaintext fields. */
  @Override
  public int schemaVersion() {
    return 2;
  }
}
