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
 */
@ConfigurationProperties("agentteams.roster")
public record RosterProperties(
    @DefaultValue("false") boolean enabled, @DefaultValue("5s") Duration catchUp) {

  public RosterProperties {
    if (catchUp.isNegative()) {
      throw new IllegalArgumentException("agentteams.roster.catch-up must not be negative");
    }
  }
}
