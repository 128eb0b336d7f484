package io.agentteams.team.teams.application;

import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.platform.bounds.Utf8Truncation;
import io.agentteams.team.teams.ProvisioningProperties;
import io.agentteams.team.teams.application.ProvisioningCheckpoint.Step;
import io.agentteams.team.teams.domain.ConversationBinding;
import io.agentteams.team.teams.domain.ConversationOutcome;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.teams.persistence.ProvisioningStore;
import io.agentteams.team.teams.persistence.ProvisioningStore.Claim;
import io.agentteams.team.teams.persistence.TeamStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Ensures the conversations of teams whose provisioning is due, one member at a time. Each member
 * has a provisioning record written before the runtime is asked (at creation or when a reconnect
 * starts); the worker claims the team with a lease and a fencing token, renews the claim before
 * each step, asks the runtime (idempotent, keyed by the conversation id), and records the member as
 * ensured together with its event in one transaction that only the claim's holder can commit.
 *
 * <p>A worker that dies anywhere leaves the records pending and the lease running out; whichever
 * instance claims the team next repeats only the unfinished steps. So a team is ready exactly when
 * every member is ensured, and nothing is recorded twice.
 */
public class TeamProvisioning {

  private static final Logger log = LoggerFactory.getLogger(TeamProvisioning.class);
  private static final int MAX_REASON_BYTES = 1000;

  private final TeamStore teams;
  private final ProvisioningStore claims;
  private final TeamEventLog events;
  private final ConversationProvisioner provisioner;
  private final ProvisioningCheckpoint checkpoint;
  private final TransactionalOperator transactions;
  private final ProvisioningProperties properties;
  private final Timer ensured;
  private final Timer failed;
  private final Counter abandoned;

  public TeamProvisioning(
      TeamStore teams,
      ProvisioningStore claims,
      TeamEventLog events,
      ConversationProvisioner provisioner,
      ProvisioningCheckpoint checkpoint,
      TransactionalOperator transactions,
      ProvisioningProperties properties,
      MeterRegistry meters) {
    this.teams = teams;
    this.claims = claims;
    this.events = events;
    this.provisioner = provisioner;
    this.checkpoint = checkpoint;
    this.transactions = transactions;
    this.properties = properties;
    this.ensured = ensureTimer(meters, "ensured");
    this.failed = ensureTimer(meters, "failed");
    this.abandoned =
        Counter.builder("agentteams.team.provisioning.abandoned")
            .description("Provisioning runs abandoned midway (crash, lost claim, database error)")
            .register(meters);
  }

  private static Timer ensureTimer(MeterRegistry meters, String outcome) {
    return Timer.builder("agentteams.team.provisioning.ensure")
        .description("Time the runtime took to ensure a member conversation")
        .tag("outcome", outcome)
        .register(meters);
  }

  /** Starts provisioning the team now, in the background, if no one else holds it. */
  public void kick(UUID teamId) {
    provisionDue(teamId)
        .subscribe(
            done -> {},
            error ->
                log.warn("provisioning of team {} failed to start: {}", teamId, error.toString()));
  }

  /**
   * Claims and provisions the teams that are due (or only {@code teamId}).
   *
   * @return how many teams this call claimed
   */
  public Mono<Integer> provisionDue(@Nullable UUID teamId) {
    return claims
        .claimDue(teamId == null ? properties.batchSize() : 1, properties.lease(), teamId)
        .flatMap(
            claimed ->
                Flux.fromIterable(claimed)
                    .flatMap(this::provisionAbandoningOnError, properties.concurrency())
                    .then(Mono.just(claimed.size())));
  }

  private Mono<Void> provisionAbandoningOnError(Claim claim) {
    return provision(claim)
        .onErrorResume(
            error -> {
              abandoned.increment();
              log.warn(
                  "provisioning of team {} abandoned; it is reclaimed when the lease runs out: {}",
                  claim.teamId(),
                  error.toString());
              return Mono.empty();
            });
  }

  /** Provisions the claimed team's pending members in roster order until one step stops. */
  Mono<Void> provision(Claim claim) {
    return teams
        .find(claim.teamId())
        .flatMapMany(
            team ->
                Flux.fromIterable(team.pendingMembers())
                    .map(name -> team.findMember(name.value()).orElseThrow().binding(team.id())))
        .concatMap(binding -> step(claim, binding))
        .takeWhile(Boolean::booleanValue)
        .then();
  }

  /** One member: renew, ask the runtime, record. Emits whether the run may go on. */
  private Mono<Boolean> step(Claim claim, ConversationBinding binding) {
    return claims
        .renew(claim, properties.lease())
        .flatMap(held -> held ? ensureAndRecord(claim, binding) : Mono.just(false));
  }

  /** Asks the runtime to ensure the member's conversation, and records what came of it. */
  private Mono<Boolean> ensureAndRecord(Claim claim, ConversationBinding binding) {
    return checkpoint
        .reached(Step.CLAIMED, binding)
        .then(ensure(binding))
        .flatMap(
            attempt ->
                attempt.outcome() != null
                    ? recordEnsuredStep(claim, binding, attempt.outcome())
                    : recordFailure(claim, binding, attempt.error()));
  }

  private Mono<Boolean> recordEnsuredStep(
      Claim claim, ConversationBinding binding, ConversationOutcome outcome) {
    return checkpoint
        .reached(Step.ENSURED, binding)
        .then(recordEnsured(claim, binding, outcome))
        .flatMap(going -> checkpoint.reached(Step.RECORDED, binding).thenReturn(going));
  }

  private record Attempt(@Nullable ConversationOutcome outcome, @Nullable Throwable error) {}

  private Mono<Attempt> ensure(ConversationBinding binding) {
    long started = System.nanoTime();
    return Mono.defer(() -> provisioner.ensure(binding))
        .timeout(properties.stepTimeout())
        .map(outcome -> new Attempt(outcome, null))
        .onErrorResume(error -> Mono.just(new Attempt(null, error)))
        .doOnNext(
            attempt ->
                (attempt.outcome() != null ? ensured : failed)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
  }

  private Mono<Boolean> recordEnsured(
      Claim claim, ConversationBinding binding, ConversationOutcome outcome) {
    Mono<Boolean> record =
        teams
            .lockFenced(claim.teamId(), claim.fence())
            .flatMap(
                team ->
                    team.memberEnsured(binding.member(), outcome)
                        ? persist(team).thenReturn(true)
                        : Mono.just(true))
            .defaultIfEmpty(false);
    return transactions.transactional(record);
  }

  private Mono<Boolean> recordFailure(
      Claim claim, ConversationBinding binding, @Nullable Throwable error) {
    String reason = reason(binding, error);
    boolean permanent = error instanceof ConversationRejected;
    Mono<Boolean> record =
        teams
            .lockFenced(claim.teamId(), claim.fence())
            .flatMap(team -> countFailure(claim, team, binding, reason, permanent))
            .thenReturn(false);
    return transactions.transactional(record);
  }

  /** Counts the failed attempt: the member fails for good at the last one, else retries later. */
  private Mono<Void> countFailure(
      Claim claim, Team team, ConversationBinding binding, String reason, boolean permanent) {
    return claims
        .recordAttempt(team.id(), binding.member().value(), reason)
        .flatMap(
            attempts -> {
              if (permanent || attempts >= properties.maxAttempts()) {
                team.memberFailed(binding.member(), reason);
                return persist(team);
              }
              log.info(
                  "team {} member {}: attempt {} failed, retrying: {}",
                  team.id(),
                  binding.member(),
                  attempts,
                  reason);
              return claims.retryAfter(claim, properties.backoff(attempts));
            });
  }

  private Mono<Void> persist(Team team) {
    List<TeamEvent> recorded = team.takeEvents();
    return teams.save(team).then(events.append(team.ownerId(), recorded));
  }

  private static String reason(ConversationBinding binding, @Nullable Throwable error) {
    String why =
        error == null
            ? "unknown error"
            : error instanceof TimeoutException
                ? "the " + binding.runtimeKind().wire() + " runtime did not answer in time"
                : error.getMessage() == null
                    ? error.getClass().getSimpleName()
                    : error.getMessage();
    String text = "conversation of member '" + binding.member() + "' not ensured: " + why;
    return Utf8Truncation.cut(text, MAX_REASON_BYTES).text();
  }
}
