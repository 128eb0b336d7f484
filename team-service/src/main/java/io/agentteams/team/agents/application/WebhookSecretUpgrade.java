package io.agentteams.team.agents.application;

import io.agentteams.team.agents.domain.RuntimeKind;
import io.agentteams.team.agents.persistence.AgentStore;
import io.agentteams.team.agents.persistence.WebhookSecretStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Leaves no webhook secret readable in the database: a row kept in plaintext (written before
 * secrets were encrypted) is encrypted, and its agent's runtime published again sealed, so the
 * compacted runtimes topic's latest record of that agent holds no plaintext either; a row under an
 * older at-rest key is encrypted again with the current one, so the old key can be removed. Runs at
 * start and every upgrade interval, each agent in a transaction of its own under its row lock.
 */
@Component
public class WebhookSecretUpgrade {

  private static final Logger log = LoggerFactory.getLogger(WebhookSecretUpgrade.class);
  private static final int BATCH = 100;

  private final AgentStore agents;
  private final WebhookSecretStore secrets;
  private final AgentRuntimes runtimes;
  private final TransactionalOperator transactions;
  private final Counter encrypted;
  private final Counter reencrypted;

  public WebhookSecretUpgrade(
      AgentStore agents,
      WebhookSecretStore secrets,
      AgentRuntimes runtimes,
      TransactionalOperator transactions,
      MeterRegistry meters) {
    this.agents = agents;
    this.secrets = secrets;
    this.runtimes = runtimes;
    this.transactions = transactions;
    this.encrypted =
        Counter.builder("agentteams.team.webhook.secrets.upgraded")
            .description("Webhook secrets rows encrypted at rest, by what they were before")
            .tag("from", "plaintext")
            .register(meters);
    this.reencrypted =
        Counter.builder("agentteams.team.webhook.secrets.upgraded")
            .description("Webhook secrets rows encrypted at rest, by what they were before")
            .tag("from", "older-key")
            .register(meters);
  }

  /** Upgrades every stale row, a batch at a time; the number of rows upgraded. */
  public Mono<Long> upgradeOnce() {
    return round()
        .expand(upgraded -> upgraded == BATCH ? round() : Mono.empty())
        .reduce(0L, Long::sum)
        .doOnNext(
            count -> {
              if (count > 0) {
                log.info("Encrypted the webhook secrets of {} agents with the current key", count);
              }
            });
  }

  /** One batch; a row that cannot be read (its key no longer configured) is left and logged. */
  private Mono<Long> round() {
    return secrets
        .stale(BATCH)
        .concatMap(
            row ->
                transactions
                    .transactional(upgrade(row))
                    .defaultIfEmpty(0L)
                    .onErrorResume(
                        error -> {
                          log.warn(
                              "Could not encrypt the webhook secrets of agent {} of owner {}"
                                  + " with the current key: {}",
                              row.agentId().value(),
                              row.ownerId(),
                              error.getMessage());
                          return Mono.just(0L);
                        }))
        .reduce(0L, Long::sum);
  }

  private Mono<Long> upgrade(WebhookSecretStore.AgentRef row) {
    return agents
        .lock(row.ownerId(), row.agentId())
        .flatMap(
            agent ->
                secrets
                    .kept(row.ownerId(), row.agentId())
                    .filter(kept -> !secrets.isCurrent(kept.keyId()))
                    .flatMap(
                        kept -> {
                          Mono<Void> saved =
                              secrets.save(row.ownerId(), row.agentId(), kept.secrets());
                          if (kept.keyId() != null) {
                            return saved
                                .doOnSuccess(done -> reencrypted.increment())
                                .thenReturn(1L);
                          }
                          // Its last record on the topic may still carry it in plaintext.
                          Mono<Void> republished =
                              agent.runtime().kind() == RuntimeKind.WEBHOOK
                                  ? runtimes.republish(agent, kept.secrets())
                                  : Mono.empty();
                          return saved
                              .then(republished)
                              .doOnSuccess(done -> encrypted.increment())
                              .thenReturn(1L);
                        }));
  }
}
