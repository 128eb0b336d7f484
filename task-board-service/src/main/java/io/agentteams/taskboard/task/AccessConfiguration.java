package io.agentteams.taskboard.task;

import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.platform.roster.RosterProperties;
import io.agentteams.platform.roster.Rosters;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Team access against the roster projection, read through a cache for {@code roster-cache-ttl}:
 * every claim and heartbeat checks its caller against the roster.
 */
@Configuration(proxyBeanMethods = false)
class AccessConfiguration {

  @Bean
  RosterAccess rosterAccess(
      TeamAccess access,
      Rosters rosters,
      TaskBoardProperties properties,
      RosterProperties roster,
      MeterRegistry meters) {
    return new RosterAccess(access, rosters, properties.rosterCacheTtl(), roster.catchUp(), meters);
  }
}
