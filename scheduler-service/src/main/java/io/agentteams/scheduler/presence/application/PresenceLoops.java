package io.agentteams.scheduler.presence.application;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The periodic upkeep of worker presence, which every replica runs for its own streams. */
@Configuration(proxyBeanMethods = false)
public class PresenceLoops {

  /** Renews this replica's streams and forgets lapsed presence every third of presence-ttl. */
  @Bean
  PeriodicLoop presenceLoop(PeriodicLoops loops, Presences presences) {
    return loops.named("worker-presence").every(presences.renewEvery()).running(presences::upkeep);
  }
}
