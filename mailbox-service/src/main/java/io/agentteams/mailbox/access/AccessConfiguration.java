package io.agentteams.mailbox.access;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.platform.roster.RosterProperties;
import io.agentteams.platform.roster.Rosters;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Team access against the roster projection, read through a cache for {@code roster-cache-ttl}: a
 * send checks its sender and its recipients against the roster.
 */
@Configuration(proxyBeanMethods = false)
class AccessConfiguration {

  @Bean
  RosterAccess rosterAccess(
      TeamAccess access,
      Rosters rosters,
      MailboxProperties properties,
      RosterProperties roster,
      MeterRegistry meters) {
    return new RosterAccess(access, rosters, properties.rosterCacheTtl(), roster.catchUp(), meters);
  }
}
