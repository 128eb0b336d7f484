package io.agentteams.team.agents.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.secrets.SecretSealer;
import io.agentteams.team.agents.AgentProperties;
import io.agentteams.team.agents.domain.Agent;
import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.agents.domain.WebhookSecrets;
import io.agentteams.team.agents.persistence.WebhookSecretStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Keeps what the scheduler needs to reach an agent in step with the catalog: a webhook agent gets
 * its signing secret when it becomes one (shown to the owner once), and every change of how an
 * agent runs (its deletion too) is published as {@link AgentRuntimeChanged} through the outbox, in
 * the same transaction as the change. The secrets are published sealed for the scheduler alone
 * ({@link SecretSealer}: a JWE to its public key, bound to the owner and agent), never in
 * plaintext.
 */
@Component
public class AgentRuntimes {

  private final WebhookSecretStore secrets;
  private final Outbox outbox;
  private final AgentProperties properties;
  private final Clock clock;
  private final SecretSealer sealer;
  private final SecureRandom random = new SecureRandom();

  public AgentRuntimes(
      WebhookSecretStore secrets,
      Outbox outbox,
      AgentProperties properties,
      Clock clock,
      SecretSealer sealer) {
    this.sealer = sealer;
    this.secrets = secrets;
    this.outbox = outbox;
    this.properties = properties;
    this.clock = clock;
  }

  /**
   * The agent was registered or replaced (its row is locked by the caller's transaction): a webhook
   * agent without a secret gets one, an agent that no longer runs as a webhook loses its secrets,
   * and the change is published.
   *
   * @return a secret made now, to be shown once, or empty
   */
  public Mono<String> changed(Agent agent) {
    String owner = agent.ownerId();
    if (agent.runtime().kind() != RuntimeKind.WEBHOOK) {
      return secrets.delete(owner, agent.id()).then(publish(agent, null)).then(Mono.empty());
    }
    return secrets
        .find(owner, agent.id())
        .map(kept -> new Made(kept, false))
        .switchIfEmpty(Mono.fromSupplier(() -> new Made(WebhookSecrets.fresh(random), true)))
        .flatMap(
            made ->
                (made.fresh()
                        ? secrets.save(owner, agent.id(), made.secrets())
                        : Mono.<Void>empty())
                    .then(publish(agent, made.secrets()))
                    .then(made.fresh() ? Mono.just(made.secrets().current()) : Mono.empty()));
  }

  /**
   * A new signing secret for a webhook agent (its row locked by the caller's transaction); the
   * previous one is still signed with for the configured overlap.
   */
  public Mono<WebhookSecrets> rotate(Agent agent) {
    Instant now = clock.instant();
    return secrets
        .find(agent.ownerId(), agent.id())
        .map(current -> current.rotated(random, now, properties.webhookSecretOverlap()))
        .switchIfEmpty(Mono.fromSupplier(() -> WebhookSecrets.fresh(random)))
        .flatMap(
            rotated ->
                secrets
                    .save(agent.ownerId(), agent.id(), rotated)
                    .then(publish(agent, rotated))
                    .thenReturn(rotated));
  }

  /**
   * The agent is being deleted (its row locked by the caller's transaction, and still there): its
   * secrets are forgotten and its deletion published, so the scheduler drops its endpoint and
   * secrets too.
   */
  public Mono<Void> deleted(Agent agent) {
    return secrets
        .delete(agent.ownerId(), agent.id())
        .then(secrets.nextRuntimeVersion(agent.ownerId(), agent.id()))
        .flatMap(
            version ->
                outbox.append(
                    Topics.AGENT_RUNTIMES,
                    AgentRuntimeChanged.key(agent.ownerId(), agent.id().value()),
                    agent.ownerId(),
                    version,
                    new AgentRuntimeChanged(
                        agent.ownerId(),
                        agent.id().value(),
                        AgentRuntimeChanged.DELETED,
                        null,
                        null,
                        null,
                        version)))
        .then();
  }

  /**
   * Publishes the agent's runtime again with the secrets it has (its row locked by the caller's
   * transaction): what replaces, on the compacted topic, a record published before secrets were
   * sealed.
   */
  Mono<Void> republish(Agent agent, WebhookSecrets signing) {
    return publish(agent, signing);
  }

  private Mono<Void> publish(Agent agent, @Nullable WebhookSecrets signing) {
    WebhookSecrets current = signing == null ? null : signing.asOf(clock.instant());
    return secrets
        .nextRuntimeVersion(agent.ownerId(), agent.id())
        .flatMap(
            version ->
                outbox.append(
                    Topics.AGENT_RUNTIMES,
                    AgentRuntimeChanged.key(agent.ownerId(), agent.id().value()),
                    agent.ownerId(),
                    version,
                    new AgentRuntimeChanged(
                        agent.ownerId(),
                        agent.id().value(),
                        agent.runtime().kind().wire(),
                        agent.runtime().endpoint(),
                        current == null ? null : sealed(agent, current),
                        current == null || current.previousValidUntil() == null
                            ? null
                            : current.previousValidUntil().toString(),
                        version)))
        .then();
  }

  private String sealed(Agent agent, WebhookSecrets signing) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put(AgentRuntimeChanged.CURRENT, signing.current());
    if (signing.previous() != null) {
      payload.put(AgentRuntimeChanged.PREVIOUS, signing.previous());
    }
    return sealer.seal(
        Map.of(
            AgentRuntimeChanged.OWNER_HEADER,
            agent.ownerId(),
            AgentRuntimeChanged.AGENT_HEADER,
            agent.id().value()),
        payload);
  }

  private record Made(WebhookSecrets secrets, boolean fresh) {}
}
