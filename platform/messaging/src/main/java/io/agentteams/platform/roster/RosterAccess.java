package io.agentteams.platform.roster;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.access.AccessPolicy;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.access.TeamIds;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.DomainFailure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * {@link TeamAccess} decided against this service's roster projection, read through a {@link
 * RosterCache}: what a service that learns teams from events asks before it acts on one.
 *
 * <p>The team service answers a new team as {@code ready} as soon as it is, while this service
 * learns of it from the team's events a moment later. So that a caller who acts on a team the
 * moment it is ready is not told it does not exist, a team this projection does not know yet (or
 * still sees provisioning) is read again, with growing pauses, while its id says it was minted less
 * than {@code catch-up} ago (see {@link TeamIds}). Any other unknown id is refused at once.
 */
public final class RosterAccess {

  private static final Duration FIRST_PAUSE = Duration.ofMillis(10);
  private static final Duration LONGEST_PAUSE = Duration.ofMillis(250);

  private final TeamAccess access;
  private final Rosters projection;
  private final RosterCache rosters;
  private final Duration catchUp;
  private final Clock clock;
  private final Counter learned;
  private final Counter unlearned;

  /**
   * @param cacheTtl how long a roster read is reused (zero reads the projection on every call)
   * @param catchUp how long after a team's id was minted a read waits for the projection to learn
   *     of it (zero never waits)
   */
  public RosterAccess(
      TeamAccess access,
      Rosters rosters,
      Duration cacheTtl,
      Duration catchUp,
      MeterRegistry meters) {
    this(access, rosters, cacheTtl, catchUp, meters, Clock.systemUTC());
  }

  RosterAccess(
      TeamAccess access,
      Rosters rosters,
      Duration cacheTtl,
      Duration catchUp,
      MeterRegistry meters,
      Clock clock) {
    if (catchUp.isNegative()) {
      throw new IllegalArgumentException("agentteams.roster.catch-up must not be negative");
    }
    this.access = access;
    this.projection = rosters;
    this.rosters = new RosterCache(rosters, cacheTtl);
    this.catchUp = catchUp;
    this.clock = clock;
    this.learned = catchUps(meters, "learned");
    this.unlearned = catchUps(meters, "not-learned");
  }

  private static Counter catchUps(MeterRegistry meters, String outcome) {
    return Counter.builder("agentteams.roster.catch.ups")
        .description(
            "Reads that waited for the roster projection to learn of a team minted moments ago")
        .tag("outcome", outcome)
        .register(meters);
  }

  /** Access to the team as the policy grants it, with its roster; or the refusal. */
  public Mono<Grant<Roster>> check(Caller caller, UUID teamId, AccessPolicy policy) {
    return access.check(caller, teamId, policy, Mono.defer(() -> read(teamId)));
  }

  /** The refusals the caller's token alone decides, before anything is read. */
  public Optional<DomainFailure> screen(Caller caller, UUID teamId, AccessPolicy policy) {
    return access.screen(caller, teamId, policy);
  }

  private Mono<Roster> read(UUID teamId) {
    return found(rosters.find(teamId))
        .flatMap(
            found -> {
              if (settled(found)) {
                return Mono.justOrEmpty(found);
              }
              Instant now = clock.instant();
              Optional<Instant> minted = TeamIds.mintedAt(teamId);
              if (minted.isEmpty() || !now.isBefore(minted.get().plus(catchUp))) {
                return Mono.justOrEmpty(found);
              }
              // Never longer than catch-up from now, whatever time the id claims.
              Instant until = min(minted.get().plus(catchUp), now.plus(catchUp));
              return awaitLearned(teamId, found, until, FIRST_PAUSE);
            });
  }

  private Mono<Roster> awaitLearned(
      UUID teamId, Optional<Roster> found, Instant until, Duration pause) {
    Duration left = Duration.between(clock.instant(), until);
    if (left.isNegative() || left.isZero()) {
      unlearned.increment();
      return Mono.justOrEmpty(found);
    }
    return Mono.delay(pause.compareTo(left) < 0 ? pause : left)
        .then(found(projection.find(teamId)))
        .flatMap(
            again -> {
              if (settled(again)) {
                learned.increment();
                return Mono.justOrEmpty(again);
              }
              Duration next = pause.multipliedBy(2);
              return awaitLearned(
                  teamId, again, until, next.compareTo(LONGEST_PAUSE) < 0 ? next : LONGEST_PAUSE);
            });
  }

  private static Mono<Optional<Roster>> found(Mono<Roster> roster) {
    return roster.map(Optional::of).defaultIfEmpty(Optional.empty());
  }

  private static boolean settled(Optional<Roster> found) {
    return found.isPresent() && found.get().status() != TeamStatus.PROVISIONING;
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
