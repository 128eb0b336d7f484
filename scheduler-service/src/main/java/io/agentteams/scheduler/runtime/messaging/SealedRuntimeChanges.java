package io.agentteams.scheduler.runtime.messaging;

import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.secrets.SecretOpener;
import io.agentteams.platform.secrets.SecretRefused;
import io.agentteams.scheduler.runtime.domain.SigningSecrets;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies an agent's runtime change once its webhook secrets are opened: sealed for this scheduler
 * (a {@code kid} among its unsealing keys) and bound to the very owner and agent of the record they
 * came with. A change whose seal is missing, unreadable, under a key not held, or names another
 * agent or owner is refused whole (nothing of it is applied, the agent keeps what it had) and
 * counted in {@code agentteams.scheduler.webhook.secrets.refused{reason}}.
 */
@Component
public class SealedRuntimeChanges {

  /** The meter counting refused changes, tagged with the reason. */
  public static final String REFUSED = "agentteams.scheduler.webhook.secrets.refused";

  private static final Logger log = LoggerFactory.getLogger(SealedRuntimeChanges.class);

  private final PushAgentStore agents;
  private final SecretOpener opener;
  private final MeterRegistry meters;

  public SealedRuntimeChanges(PushAgentStore agents, SecretOpener opener, MeterRegistry meters) {
    this.agents = agents;
    this.opener = opener;
    this.meters = meters;
    counter("missing");
    for (SecretRefused.Reason reason : SecretRefused.Reason.values()) {
      counter(reason.tag());
    }
  }

  /** Applies the change, or refuses it; either way the event is done with. */
  public Mono<Void> apply(AgentRuntimeChanged change) {
    if (change.deleted() || !"webhook".equals(change.runtimeKind())) {
      return agents.apply(change, null);
    }
    String sealed = change.sealedWebhookSecrets();
    if (sealed == null) {
      return refuse(change, "missing", "a webhook agent's change carries no sealed secrets");
    }
    SigningSecrets secrets;
    try {
      Map<String, Object> opened =
          opener.open(
              sealed,
              Map.of(
                  AgentRuntimeChanged.OWNER_HEADER,
                  change.ownerId(),
                  AgentRuntimeChanged.AGENT_HEADER,
                  change.agentId()));
      if (!(opened.get(AgentRuntimeChanged.CURRENT) instanceof String current)
          || !(opened.get(AgentRuntimeChanged.PREVIOUS) == null
              || opened.get(AgentRuntimeChanged.PREVIOUS) instanceof String)) {
        return refuse(change, "unreadable", "the sealed secrets are not strings");
      }
      String previous =
          change.previousValidUntil() == null
              ? null
              : (String) opened.get(AgentRuntimeChanged.PREVIOUS);
      secrets = new SigningSecrets(current, previous);
    } catch (SecretRefused refused) {
      return refuse(change, refused.reason().tag(), refused.getMessage());
    }
    return agents.apply(change, secrets);
  }

  private Mono<Void> refuse(AgentRuntimeChanged change, String reason, String why) {
    counter(reason).increment();
    log.warn(
        "Refused the runtime change {} of agent {} of owner {}: {}",
        change.version(),
        change.agentId(),
        change.ownerId(),
        why);
    return Mono.empty();
  }

  private Counter counter(String reason) {
    return Counter.builder(REFUSED)
        .description(
            "Agent runtime changes refused because their sealed webhook secrets could not be"
                + " opened for that agent")
        .tag("reason", reason)
        .register(meters);
  }
}
