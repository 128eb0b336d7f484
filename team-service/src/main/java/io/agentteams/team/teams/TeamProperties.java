package io.agentteams.team.teams;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.team.teams.domain.TeamLimits;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Team limits, with the defaults DESIGN.md names.
 *
 * @param nameMaxChars team name, characters
 * @param nameMaxBytes team name, UTF-8 bytes
 * @param goalMaxChars goal, characters
 * @param goalMaxBytes goal, UTF-8 bytes
 * @param minMembers fewest members
 * @param maxMembers most members
 * @param maxTeamsPerOwner most teams per owner
 * @param tombstoneRetention how long a deleted team's row (its tombstone: id, owner, name,
 *     revision) is kept before it is purged: longer than the team events topic keeps the events
 *     that name the team (7 days, plus a segment's 7 days before the broker deletes it)
 * @param tombstonePurgeInterval how often each replica purges expired tombstones
 */
@Validated
@ConfigurationProperties("agentteams.team")
public record TeamProperties(
    @DefaultValue("80") int nameMaxChars,
    @DefaultValue("160") int nameMaxBytes,
    @DefaultValue("2000") int goalMaxChars,
    @DefaultValue("4000") int goalMaxBytes,
    @DefaultValue("2") int minMembers,
    @DefaultValue("8") int maxMembers,
    @DefaultValue("20") int maxTeamsPerOwner,
    @DefaultValue("30d") Duration tombstoneRetention,
    @DefaultValue("1h") Duration tombstonePurgeInterval) {

  public TeamProperties {
    if (tombstoneRetention.compareTo(Duration.ofDays(15)) < 0) {
      throw new IllegalArgumentException(
          "agentteams.team.tombstone-retention must be at least 15d: longer than the team events"
              + " can still be delivered");
    }
    if (tombstonePurgeInterval.isNegative() || tombstonePurgeInterval.isZero()) {
      throw new IllegalArgumentException(
          "agentteams.team.tombstone-purge-interval must be positive");
    }
  }

  /** The limits as the domain sees them; invalid combinations fail at start-up. */
  public TeamLimits limits() {
    return new TeamLimits(
        new TextBound("team.name", nameMaxChars, nameMaxBytes),
        new TextBound("team.goal", goalMaxChars, goalMaxBytes),
        minMembers,
        maxMembers,
        maxTeamsPerOwner);
  }
}
