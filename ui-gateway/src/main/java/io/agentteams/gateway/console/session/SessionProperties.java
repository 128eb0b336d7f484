package io.agentteams.gateway.console.session;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How long console sessions last on the server ({@link SessionRecords}); the absolute lifetime is
 * {@code agentteams.gateway.console.session-ttl}.
 *
 * @param idleTimeout a session with no request for this long ends
 * @param touchInterval how often a replica tells the others that a session is still in use (at most
 *     once per session per interval); well below the idle timeout
 * @param topic the compacted topic every replica reads the sessions from
 */
@Validated
@ConfigurationProperties("agentteams.gateway.console.sessions")
public record SessionProperties(
    @DefaultValue("1h") Duration idleTimeout,
    @DefaultValue("1m") Duration touchInterval,
    @DefaultValue("agentteams.console.sessions") String topic) {

  public SessionProperties {
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException(
          "agentteams.gateway.console.sessions.idle-timeout must be positive");
    }
    if (touchInterval.isNegative() || touchInterval.compareTo(idleTimeout) >= 0) {
      throw new IllegalArgumentException(
          "agentteams.gateway.console.sessions.touch-interval must be below the idle timeout");
    }
  }
}
