package io.agentteams.gateway.console.session;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The console sessions' topic, created at start-up when missing: compacted (a session's latest
 * state, its end, an owner's sign-out everywhere) and deleted after seven days, far beyond the
 * longest session ({@code agentteams.gateway.console.session-ttl}, 12 hours by default).
 */
@Configuration(proxyBeanMethods = false)
class SessionTopic {

  static final Duration RETENTION = Duration.ofDays(7);

  @Bean
  NewTopic consoleSessionsTopic(SessionProperties properties) {
    return new NewTopic(properties.topic(), Optional.of(1), Optional.empty())
        .configs(
            Map.of(
                "cleanup.policy",
                "compact,delete",
                "retention.ms",
                String.valueOf(RETENTION.toMillis())));
  }
}
