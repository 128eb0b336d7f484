package io.agentteams.platform.roster;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The roster projection of a service that learns teams from events.
 *
 * @param enabled whether this service keeps the projection
 * @param catchUp how long after a team was created a request about it waits for the projection to
 *     learn of it, instead of answering that it does not exist (zero never waits; see {@link
 *     RosterAccess})
 * @param tombstoneRetention how long a deleted team's tombstone is kept before it is purged, and
 *     the age beyond which a team event is too old to apply: longer than the team events topic
 *     keeps a record (7 days, plus a segment's 7 days before the broker deletes it) and than the
 *     consumers' processed marks (14 days), so no copy of an older event of the team can still be
 *     delivered
 * @param tombstonePurgeInterval how often each replica purges expired tombstones
 */
@ConfigurationProperties("agentteams.roster")
public record RosterProperties(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("5s") Duration catchUp,
    @DefaultValue("30d") Duration tombstoneRetention,
    @DefaultValue("1h") Duration tombstonePurgeInterval) {

  /** The default of {@code tombstone-retention}. */
  public static final Duration DEFAULT_TOMBSTONE_RETENTION = Duration.ofDays(30);

  public RosterProperties {
    if (catchUp.isNegative()) {
      throw new IllegalArgumentException("agentteams.roster.catch-up must not be negative");
    }
    if (tombstoneRetention.compareTo(Duration.ofDays(15)) < 0) {
      throw new IllegalArgumentException(
          "agentteams.roster.tombstone-retention must be at least 15d: longer than the team"
              + " events can still be delivered");
    }
    if (tombstonePurgeInterval.isNegative() || tombstonePurgeInterval.isZero()) {
      throw new IllegalArgumentException(
          "agentteams.roster.tombstone-purge-interval must be positive");
    }
  }
}
