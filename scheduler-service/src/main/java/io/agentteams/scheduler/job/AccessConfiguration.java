package io.agentteams.scheduler.job;

import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.platform.roster.RosterProperties;
import io.agentteams.platform.roster.Rosters;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Team access against the roster projection, read afresh on every request: a request is refused the
 * moment the projection learns that its team failed or was deleted.
 */
@Configuration(proxyBeanMethods = false)
class AccessConfiguration {

  @Bean
  RosterAccess rosterAccess(
      TeamAccess access, Rosters rosters, RosterProperties roster, MeterRegistry meters) {
    return new RosterAccess(access, rosters, Duration.ZERO, roster.catchUp(), meters);
  }
}
