package io.agentteams.devstack;

import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.demo.LiveDemo;
import io.agentteams.devstack.process.ChildProcess;
import io.agentteams.devstack.process.ProcessStack;
import io.agentteams.platform.embedded.FolderLock;
import io.agentteams.platform.embedded.LocalKafka;
import io.agentteams.platform.embedded.LocalPostgres;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

/**
 * The embedded default: an embedded Postgres and Kafka (KRaft) and all five services on fixed
 * loopback ports, with data kept under {@code .devstack/} so a restart keeps the teams. Stops
 * cleanly on Ctrl+C or SIGTERM: the services first (the gateway first of them), then Kafka, then
 * Postgres. A second start on a data folder in use refuses and leaves the running stack alone.
 *
 * <p>Settings (system properties, all under {@code agentteams.devstack.}):
 *
 * <ul>
 *   <li>{@code dir} — the data folder (default {@code .devstack});
 *   <li>{@code mode} — {@code single} (default: everything in this JVM) or {@code processes} (Kafka
 *       and every service in a JVM of its own, each started again when it ends unasked, so any part
 *       can be killed; logs in {@code <dir>/logs/});
 *   <li>{@code replicas} — replicas of each service in processes mode (default 1; with more, each
 *       service's port is a front that spreads connections over its live replicas);
 *   <li>{@code postgres-port} (5433), {@code kafka-port} (9092), {@code kafka-controller-port}
 *       (9093);
 *   <li>{@code port.ui-gateway} (8080), {@code port.team-service} (8081), {@code
 *       port.mailbox-service} (8082), {@code port.task-board-service} (8083), {@code
 *       port.scheduler-service} (8084), {@code port.ui-gateway-management} (8090: the gateway's
 *       health and metrics, which its own port does not serve);
 *   <li>{@code demo} — {@code true} (default): start the live demo team once the stack is up;
 *   <li>{@code loopback-agents} — {@code true} (default): webhook and A2A agents may listen on
 *       127.0.0.1 (the outbound guard allows {@code 127.0.0.1/32}, nothing else private); {@code
 *       false} refuses them as production does;
 *   <li>{@code stop-with-parent} — set by the run command: stop when Maven does.
 * </ul>
 */
public final class DevStack {

  /** Every service of the embedded stack gets these besides its own configuration. */
  static final Map<String, Object> DEVELOPMENT_PROPERTIES =
      Map.of(
          // DEVELOPMENT ONLY: tokens for anyone who asks, from POST /dev/tokens.
          "agentteams.gateway.identity.dev-identity-enabled",
          true,
          // DEVELOPMENT ONLY: everyone signed in to the console may see the operator page.
          "agentteams.gateway.console.operators",
          "*",
          // Five services and the broker share one heap here: the gateway keeps a quarter of the
          // production default of recent events for reconnecting streams (older ones are read
          // back from Kafka), which keeps long-lived objects, and the collector's work, down.
          "agentteams.gateway.stream.window-bytes-total",
          "32MB",
          // A replica killed and not started again hands its partitions over after this.
          "spring.kafka.consumer.properties.session.timeout.ms",
          10_000,
          "spring.kafka.consumer.properties.heartbeat.interval.ms",
          1_000,
          // A consumer that stops has committed and left its group before it closes; its close
          // then waited up to 2 s for the broker to answer its idle fetch, one service's stop.
          "agentteams.consumer.close-timeout",
          "1s",
          // One Postgres serves every service: a gateway whose services cannot reach it answers
          // 503 to every call, so it is not ready either.
          "agentteams.gateway.readiness.check-services",
          true,
          // A stream still open at a stop (the console's, a worker's) would hold each service's
          // graceful shutdown for its default 30 s: a stop of the stack takes seconds instead.
          "spring.lifecycle.timeout-per-shutdown-phase",
          "2s");

  /** Loopback agents allowed: DEVELOPMENT ONLY, the chart and compose keep the guard's default. */
  static final Map<String, Object> LOOPBACK_AGENTS =
      Map.of("agentteams.outbound.allow-cidrs", "127.0.0.1/32");

  /** The single mode's logging: the terminal quiet, everything in {@code <dir>/logs/stack.log}. */
  static final String RUN_LOGGING = "devstack-run-logback.xml";

  private DevStack() {}

  /** What every service of this stack gets besides its own configuration. */
  static Map<String, Object> developmentProperties(DevStackSettings settings) {
    Map<String, Object> properties = new LinkedHashMap<>(DEVELOPMENT_PROPERTIES);
    properties.put(ServiceStack.GATEWAY_MANAGEMENT_PORT, settings.gatewayManagementPort());
    if (settings.loopbackAgents()) {
      properties.putAll(LOOPBACK_AGENTS);
    }
    return properties;
  }

  public static void main(String[] args) throws InterruptedException {
    long started = System.nanoTime();
    DevStackSettings settings = DevStackSettings.fromSystemProperties();
    boolean ownLogging = System.getProperty("logback.configurationFile") == null;
    if (ownLogging) {
      // Before anything logs. Processes mode: no service runs in this JVM, each part logs to its
      // own file. Single mode: the terminal shows progress, warnings and errors, the log file all.
      System.setProperty("agentteams.devstack.logs", settings.home().resolve("logs").toString());
      System.setProperty(
          "logback.configurationFile",
          settings.mode() == DevStackSettings.Mode.PROCESSES
              ? "devstack-supervisor-logback.xml"
              : RUN_LOGGING);
    }
    // After the logging set-up: this is the first class that logs.
    StopWithParent.watchIfAsked();
    boolean quietServices = ownLogging && settings.mode() == DevStackSettings.Mode.SINGLE;
    if (quietServices) {
      // Logback is set up now; each service's start sets it up again from logging.config (and
      // warns about this property if it is still set).
      System.clearProperty("logback.configurationFile");
    }
    FolderLock folder;
    try {
      folder =
          FolderLock.acquire(
              settings.home().resolve("devstack.lock"),
              "The Agent Teams data folder " + settings.home());
    } catch (FolderLock.FolderInUseException inUse) {
      System.err.println("Agent Teams: not started. " + inUse.getMessage());
      System.exit(2);
      return;
    }
    LocalPostgres postgres =
        LocalPostgres.start(
            settings.home().resolve("postgres"),
            settings.home().resolve("binaries"),
            settings.postgresPort());
    // A Postgres that crashes or is killed is started again: the services' pools reconnect.
    postgres.superviseEvery(Duration.ofSeconds(1));
    AtomicReference<Running> running = new AtomicReference<>();
    CountDownLatch stopped = new CountDownLatch(1);
    // Registered before the parts start, so that a stop while they start stops them too.
    AtomicReference<LiveDemo> demo = new AtomicReference<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("Agent Teams: stopping...");
                  LiveDemo guest = demo.get();
                  if (guest != null) {
                    guest.close();
                  }
                  Running parts = running.get();
                  if (parts != null) {
                    parts.close();
                  }
                  postgres.close();
                  folder.close();
                  System.out.println("Agent Teams: stopped.");
                  stopped.countDown();
                },
                "devstack-stop"));
    Running stack;
    try {
      stack =
          settings.mode() == DevStackSettings.Mode.PROCESSES
              ? processes(settings, postgres)
              : single(settings, postgres, quietServices);
      running.set(stack);
      stack.start();
    } catch (RuntimeException e) {
      System.err.println("Agent Teams: could not start: " + e.getMessage());
      e.printStackTrace();
      // The hook stops what did start.
      System.exit(1);
      return;
    }
    String gateway = stack.url(Service.GATEWAY);
    System.out.printf(
        """

        Agent Teams is up in %d s (data in %s).
          Console:  %s/  (sign in with any owner id: development identity)
          Gateway:  %s
          Health:   %s/actuator/health  (metrics: /actuator/prometheus, on this port only)
          Token:    curl -s -X POST %s/dev/tokens -H 'Content-Type: application/json' -d '{"owner_id":"alice"}'
                    (development identity only; send it as 'Authorization: Bearer <access_token>')
          Services: team %s, mailbox %s, task-board %s, scheduler %s
          Kafka %s, Postgres 127.0.0.1:%d%s
          Agents:   %s
          Logs:     %s
        Press Ctrl+C to stop.
        %n""",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(),
        settings.home(),
        gateway,
        gateway,
        stack.managementUrl(Service.GATEWAY),
        gateway,
        stack.url(Service.TEAM),
        stack.url(Service.MAILBOX),
        stack.url(Service.TASK_BOARD),
        stack.url(Service.SCHEDULER),
        stack.kafkaBootstrapServers(),
        postgres.port(),
        stack.processes(),
        settings.loopbackAgents()
            ? "webhook and A2A endpoints on 127.0.0.1 are allowed (development only;"
                + " -Dagentteams.devstack.loopback-agents=false refuses them)"
            : "endpoints on 127.0.0.1 are refused, as in production",
        settings.mode() == DevStackSettings.Mode.PROCESSES
            ? settings.home().resolve("logs") + " (one file per process)"
            : settings.home().resolve("logs/stack.log")
                + " (the terminal shows warnings and errors only)");
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

  /** Kafka and the services, however they run; Postgres is started and stopped around them. */
  private interface Running extends AutoCloseable {

    /** Starts Kafka, then the services. */
    void start();

    String url(Service service);

    /** Where the service serves its actuator (the gateway: a port of its own). */
    String managementUrl(Service service);

    String kafkaBootstrapServers();

    /** Lines about the processes an operator may kill, or nothing. */
    String processes();

    /** Stops the services (the gateway first), then Kafka. */
    @Override
    void close();
  }

  private static Map<Service, DatabaseAccess> databases(LocalPostgres postgres) {
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
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
    return databases;
  }

  private static Running single(
      DevStackSettings settings, LocalPostgres postgres, boolean quietServices) {
    Map<String, Object> properties = developmentProperties(settings);
    if (quietServices) {
      // Each service's start sets logging up again: with the same file, so it stays quiet.
      properties.put("logging.config", "classpath:" + RUN_LOGGING);
    }
    // One replica of each, whose name survives a restart of the stack.
    properties.put("agentteams.consumer.instance-id", "devstack");
    return new Running() {
      private volatile LocalKafka kafka;
      private volatile ServiceStack services;

      @Override
      public void start() {
        kafka =
            LocalKafka.start(
                settings.home().resolve("kafka"),
                settings.kafkaPort(),
                settings.kafkaControllerPort(),
                12);
        services =
            ServiceStack.start(
                new ServiceStack.Settings(
                    kafka.bootstrapServers(), databases(postgres), settings.ports(), properties));
      }

      @Override
      public String url(Service service) {
        return services.url(service);
      }

      @Override
      public String managementUrl(Service service) {
        return services.managementUrl(service);
      }

      @Override
      public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
      }

      @Override
      public String processes() {
        return "";
      }

      @Override
      public void close() {
        if (services != null) {
          services.close();
        }
        if (kafka != null) {
          // The broker's own shutdown closes one of its clients twice and warns about it; every
          // other client is gone by now.
          LoggingSystem.get(DevStack.class.getClassLoader())
              .setLogLevel("org.apache.kafka.clients.NetworkClient", LogLevel.ERROR);
          kafka.close();
          System.out.println("Agent Teams: stopped Kafka");
        }
      }
    };
  }

  private static Map<Service, Integer> replicas(int each) {
    Map<Service, Integer> replicas = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      replicas.put(service, each);
    }
    return replicas;
  }

  private static Running processes(DevStackSettings settings, LocalPostgres postgres) {
    ProcessStack stack =
        ProcessStack.create(
            new ProcessStack.Settings(
                settings.home(),
                System.getProperty("java.class.path"),
                replicas(settings.replicas()),
                settings.ports(),
                settings.kafkaPort(),
                settings.kafkaControllerPort(),
                databases(postgres),
                developmentProperties(settings),
                true));
    return new Running() {
      @Override
      public void start() {
        stack.start();
      }

      @Override
      public String url(Service service) {
        return stack.url(service);
      }

      @Override
      public String managementUrl(Service service) {
        return stack.managementUrl(service);
      }

      @Override
      public String kafkaBootstrapServers() {
        return stack.kafkaBootstrapServers();
      }

      @Override
      public String processes() {
        List<String> lines = new ArrayList<>();
        Function<ChildProcess, String> pid =
            p -> p.handle().map(h -> Long.toString(h.pid())).orElse("-");
        for (ChildProcess process : stack.processes()) {
          lines.add(
              String.format(
                  "    %-22s pid %-8s %s", process.name(), pid.apply(process), process.logFile()));
        }
        return "\n  Processes (each is started again when it ends; kill -9 any of them):\n"
            + String.join("\n", lines);
      }

      @Override
      public void close() {
        stack.close();
      }
    };
  }
}
