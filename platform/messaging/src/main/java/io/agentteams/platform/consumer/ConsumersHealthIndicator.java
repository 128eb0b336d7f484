package io.agentteams.platform.consumer;

import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP once every event subscription's consumers run and have joined their groups, so readiness says
 * whether the service can do its event-driven work, not only whether the broker answers.
 */
public final class ConsumersHealthIndicator implements HealthIndicator {

  private final EventListeners listeners;

  public ConsumersHealthIndicator(EventListeners listeners) {
    this.listeners = listeners;
  }

  @Override
  public Health health() {
    List<String> waiting = listeners.notJoined();
    return waiting.isEmpty()
        ? Health.up().build()
        : Health.outOfService().withDetail("not-joined", waiting).build();
  }
}
