package io.agentteams.devstack;

import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.demo.LiveDemo;
import io.agentteams.platform.embedded.LocalKafka;
import io.agentteams.platform.embedded.LocalPostgres;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The embedded default: an embedded Postgres and Kafka (KRaft) and all five services on fixed
 * loopback ports, with data kept under {@code .devstack/} so a restart keeps the teams. Stops
 * cleanly on Ctrl+C.
 *
 * <p>Settings (system properties): {@code agentteams.devstack.dir} (default {@code .devstack}),
 * {@code agentteams.devstack.postgres-port} (5433), {@code agentteams.devstack.kafka-port} (9092),
 * {@code agentteams.devstack.kafka-controller-port} (9093), and the service ports {@code
 * agentteams.devstack.port.<service>} (gateway 8080, team 8081, mailbox 8082, task-board 8083,
 * scheduler 8084), {@code agentteams.devstack.demo} (true: start the live demo once the stack is
 * up) and {@code agentteams.devstack.stop-with-parent} (set by the run command: stop when Maven
 * does).
 */
public final class DevStack {

  private DevStack() {}

  public static void main(String[] args) throws InterruptedException {
    long started = System.nanoTime();
    StopWithParent.watchIfAsked();
    Path home =
        Path.of(System.getProperty("agentteams.devstack.dir", ".devstack")).toAbsolutePath();
    LocalPostgres postgres =
        LocalPostgres.start(
            home.resolve("postgres"),
            home.resolve("binaries"),
            Integer.getInteger("agentteams.devstack.postgres-port", 5433));
    LocalKafka kafka =
        LocalKafka.start(
            home.resolve("kafka"),
            Integer.getInteger("agentteams.devstack.kafka-port", 9092),
            Integer.getInteger("agentteams.devstack.kafka-controller-port", 9093),
            12);
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    Map<Service, Integer> ports = new EnumMap<>(Service.class);
    int[] defaultPorts = {8081, 8082, 8083, 8084, 8080};
    for (Service service : Service.values()) {
      ports.put(
          service,
          Integer.getInteger(
              "agentteams.devstack.port." + service.id(), defaultPorts[service.ordinal()]));
      if (service.database() != null) {
        postgres.createDatabase(service.database());
        databases.put(
            service,
            new DatabaseAccess(
                postgres.r2dbcUrl(service.database()),
                postgres.jdbcUrl(service.database()),
                LocalPostgres.USER,
                ""));
      }
    }
    ServiceStack stack;
    try {
      stack =
          ServiceStack.start(
              new ServiceStack.Settings(
                  kafka.bootstrapServers(),
                  databases,
                  ports,
                  Map.of(
                      "agentteams.gateway.identity.dev-identity-enabled",
                      true,
                      // Every request traced; logs are text with trace and span ids. Spans leave
                      // the process only where
                      // MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT
                      // is set in the environment.
                      "management.tracing.sampling.probability",
                      1.0,
                      // DEVELOPMENT ONLY: everyone signed in to the console may see the operator
                      // page.
                      "agentteams.gateway.console.operators",
                      "*")));
    } catch (RuntimeException e) {
      kafka.close();
      postgres.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicReference<LiveDemo> demo = new AtomicReference<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("Agent Teams: stopping...");
                  LiveDemo running = demo.get();
                  if (running != null) {
                    running.close();
                  }
                  stack.close();
                  kafka.close();
                  postgres.close();
                  stopped.countDown();
                },
                "devstack-stop"));
    String gateway = stack.url(Service.GATEWAY);
    System.out.printf(
        """

        Agent Teams is up in %d s (data in %s).
          Console:  %s/  (sign in with any owner id: development identity)
          Gateway:  %s
          Health:   %s/actuator/health
          Token:    curl -s -X POST %s/dev/tokens -H 'Content-Type: application/json' -d '{"owner_id":"alice"}'
                    (development identity only; send it as 'Authorization: Bearer <access_token>')
          Services: team %s, mailbox %s, task-board %s, scheduler %s
          Kafka %s, Postgres 127.0.0.1:%d
        Press Ctrl+C to stop.
        %n""",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(),
        home,
        gateway,
        gateway,
        gateway,
        gateway,
        stack.url(Service.TEAM),
        stack.url(Service.MAILBOX),
        stack.url(Service.TASK_BOARD),
        stack.url(Service.SCHEDULER),
        kafka.bootstrapServers(),
        postgres.port());
    if (Boolean.parseBoolean(System.getProperty("agentteams.devstack.demo", "true"))) {
      startDemo(gateway, demo);
    }
    stopped.await();
  }

  /** The demo is a guest of the stack: if it cannot start, the stack stays up without it. */
  private static void startDemo(String gateway, AtomicReference<LiveDemo> demo) {
    try {
      LiveDemo started =
          LiveDemo.start(LiveDemo.Settings.forRunCommand(URI.create(gateway), System.out));
      demo.set(started);
      System.out.println(started.banner());
    } catch (RuntimeException e) {
      System.out.println(
          "The demo did not start (" + e.getMessage() + "); the stack runs without it.");
    }
  }
}
