package io.agentteams.scheduler;

import java.time.Duration;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the scheduler's replicas share beyond any one capability: dispatch to agent runtimes and
 * this replica's name, with the defaults DESIGN.md names. Each capability's own settings live with
 * it ({@code JobProperties}, {@code BudgetProperties}, {@code AdmissionProperties}, {@code
 * RunProperties}, {@code WebhookProperties}, {@code A2aProperties}), under the same keys.
 *
 * @param dispatch leases, streams, the sweeper and reconciliation
 * @param replicaId this instance's name in the records it writes; generated when blank
 */
@Validated
@ConfigurationProperties("agentteams.scheduler")
public record SchedulerProperties(
    @DefaultValue Dispatch dispatch, @DefaultValue("") String replicaId) {

  public SchedulerProperties {
    if (replicaId.isBlank()) {
      replicaId = "scheduler-" + UUID.randomUUID().toString().substring(0, 8);
    }
  }

  /** What happens to a job whose outcome stayed unknown for longer than the time-out. */
  public enum UnknownPolicy {
    /** Mark it failed with a reason that says the outcome is unknown; its slot is released. */
    FAIL,
    /** Keep it unknown, holding its slot, until a worker reports or the owner cancels it. */
    HOLD
  }

  /**
   * Dispatch to agent runtimes.
   *
   * @param leaseTtl how long a lease lasts without a heartbeat, unless the worker asks otherwise
   * @param minLeaseTtl the shortest lease a worker may ask for
   * @param maxLeaseTtl the longest lease a worker may ask for
   * @param memberTokenTtl how long a member token handed out with a job lives
   * @param pollInterval how often a replica looks, for all the worker streams it holds at once, for
   *     jobs the database's signals did not announce
   * @param offersPerClaim jobs one stream claims at a time
   * @param streamHeartbeat how often an idle stream sends a comment to keep the connection open
   * @param sweepInterval how often expired leases and unknown outcomes are looked for
   * @param unknownTimeout how long a job may stay unknown before the policy applies
   * @param unknownPolicy what happens then
   * @param stepTimeout the longest one claim, report or sweep step may take
   * @param offerTimeout schedule-to-start: how long an admitted job may wait for a runtime to take
   *     its offer before it gives its slot back and waits for a worker (keeping its place)
   * @param presenceTtl how long an open stream counts as a connected worker without its replica
   *     renewing it (every third of this); a replica that dies leaves its streams' presence to
   *     lapse after at most this long
   */
  public record Dispatch(
      @DefaultValue("30s") Duration leaseTtl,
      @DefaultValue("1s") Duration minLeaseTtl,
      @DefaultValue("10m") Duration maxLeaseTtl,
      @DefaultValue("15m") Duration memberTokenTtl,
      @DefaultValue("1s") Duration pollInterval,
      @DefaultValue("8") int offersPerClaim,
      @DefaultValue("15s") Duration streamHeartbeat,
      @DefaultValue("1s") Duration sweepInterval,
      @DefaultValue("15m") Duration unknownTimeout,
      @DefaultValue("FAIL") UnknownPolicy unknownPolicy,
      @DefaultValue("5s") Duration stepTimeout,
      @DefaultValue("1m") Duration offerTimeout,
      @DefaultValue("30s") Duration presenceTtl) {

    public Dispatch {
      if (presenceTtl.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.presence-ttl must be at least 1s");
      }
      if (offerTimeout.isNegative() || offerTimeout.isZero()) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.offer-timeout must be positive");
      }
      if (minLeaseTtl.compareTo(maxLeaseTtl) > 0
          || leaseTtl.compareTo(minLeaseTtl) < 0
          || leaseTtl.compareTo(maxLeaseTtl) > 0) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch: need min-lease-ttl <= lease-ttl <= max-lease-ttl");
      }
      if (offersPerClaim < 1) {
        throw new IllegalArgumentException(
            "agentteams.scheduler.dispatch.offers-per-claim must be >= 1");
      }
    }
  }
}
