package io.agentteams.devstack.support;

import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.platform.test.Database;
import io.agentteams.platform.test.TestInfrastructure;
import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * All five services on the shared Kafka and Postgres, started once per test JVM for every test
 * class that plays through the gateway, and stopped when the JVM ends.
 */
public final class SharedStack {

  /**
   * Partitions of every topic in the shared stack. A part a test starts beside the stack (another
   * gateway) must be given the same: with more, its start would add partitions to every topic, and
   * the stack's consumers would not read the new ones until their next metadata refresh.
   */
  public static final int PARTITIONS = 4;

  private static @Nullable ServiceStack stack;

  private SharedStack() {}

  /** The running stack, started on first use. */
  public static synchronized ServiceStack get() {
    if (stack == null) {
      stack = start(TestInfrastructure.shared());
      ServiceStack started = stack;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stack-shutdown"));
    }
    return stack;
  }

  private static ServiceStack start(TestInfrastructure shared) {
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      if (service.database() != null) {
        Database db = shared.freshDatabase("e2e_" + service.database());
        databases.put(
            service, new DatabaseAccess(db.r2dbcUrl(), db.jdbcUrl(), db.username(), db.password()));
      }
    }
    return ServiceStack.start(
        new ServiceStack.Settings(
            shared.kafkaBootstrapServers(),
            databases,
            Map.of(),
            Map.ofEntries(
                Map.entry("agentteams.gateway.identity.dev-identity-enabled", true),
                // Every trace is kept, and every service's spans land in CapturedSpans.
                Map.entry("management.tracing.sampling.probability", 1.0),
                Map.entry("agentteams.test.capture-spans", true),
                Map.entry("agentteams.kafka.partitions", PARTITIONS),
                Map.entry("agentteams.outbox.poll-interval", "200ms"),
                // A stream still open at shutdown (a worker's job stream through the gateway's
                // proxy) would hold a graceful shutdown for its default 30 s.
                Map.entry("spring.lifecycle.timeout-per-shutdown-phase", "2s"),
                // Tests play many parts quickly from one address; the rate limit has its own test.
                Map.entry("agentteams.gateway.limits.requests-per-second", 10_000),
                Map.entry("agentteams.gateway.limits.burst", 10_000),
                Map.entry("agentteams.gateway.limits.anonymous-requests-per-second", 10_000),
                Map.entry("agentteams.gateway.limits.anonymous-burst", 10_000),
                // Test agents (webhook, A2A) listen on loopback, which the outbound guard refuses
                // unless the operator allows it: this stack allows 127.0.0.1 alone.
                Map.entry("agentteams.outbound.allow-cidrs", "127.0.0.1/32"),
                // Webhook pushes wait briefly for an answer and reconcile soon, so the tests of
                // unknown outcomes and retries take seconds.
                Map.entry("agentteams.scheduler.webhook.response-timeout", "2s"),
                Map.entry("agentteams.scheduler.webhook.lease-ttl", "10s"),
                Map.entry("agentteams.scheduler.webhook.reconcile-delay", "1s"),
                Map.entry("agentteams.scheduler.webhook.backoff-base", "100ms"),
                Map.entry("agentteams.scheduler.webhook.backoff-max", "2s"),
                // A2A calls likewise: a short answer time-out, a quick reconciliation and brisk
                // polling of agents that do not stream.
                Map.entry("agentteams.scheduler.a2a.response-timeout", "3s"),
                Map.entry("agentteams.scheduler.a2a.lease-ttl", "10s"),
                Map.entry("agentteams.scheduler.a2a.reconcile-delay", "1s"),
                Map.entry("agentteams.scheduler.a2a.task-poll-interval", "200ms"),
                Map.entry("agentteams.scheduler.a2a.backoff-base", "100ms"),
                Map.entry("agentteams.scheduler.a2a.backoff-max", "2s"),
                // The console's browser tests sign this owner in to see the operator page.
                Map.entry("agentteams.gateway.console.operators", "olga-operator"))));
  }
}
