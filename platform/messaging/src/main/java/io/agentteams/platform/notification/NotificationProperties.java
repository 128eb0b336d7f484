package io.agentteams.platform.notification;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the process's listening connection comes back after it was lost.
 *
 * @param reconnectBackoff the pause before the first attempt to reconnect; doubles per failed
 *     attempt
 * @param maxReconnectBackoff the longest such pause
 */
@Validated
@ConfigurationProperties("agentteams.notifications")
public record NotificationProperties(
    @DefaultValue("200ms") Duration reconnectBackoff,
    @DefaultValue("10s") Duration maxReconnectBackoff) {

  public NotificationProperties {
    if (reconnectBackoff.isNegative() || reconnectBackoff.isZero()) {
      throw new IllegalArgumentException(
          "agentteams.notifications.reconnect-backoff must be positive");
    }
    if (maxReconnectBackoff.compareTo(reconnectBackoff) < 0) {
      throw new IllegalArgumentException(
          "agentteams.notifications.max-reconnect-backoff must not be shorter than the first");
    }
  }

  /** The defaults, for code that builds a listener without Spring. */
  public static NotificationProperties defaults() {
    return new NotificationProperties(Duration.ofMillis(200), Duration.ofSeconds(10));
  }
}
