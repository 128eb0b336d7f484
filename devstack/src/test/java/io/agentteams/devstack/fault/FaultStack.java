package io.agentteams.devstack.fault;

import io.agentteams.devstack.ServiceStack.DatabaseAccess;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.process.ChildProcess;
import io.agentteams.devstack.process.ProcessStack;
import io.agentteams.platform.embedded.FreePorts;
import io.agentteams.platform.embedded.LocalPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stack the fault suite runs against: Postgres (owned here, so it can be stopped and started
 * again) and the processes mode's Kafka and service JVMs, with the faults the suite injects. Every
 * fault is recorded with the moment it was injected.
 */
final class FaultStack implements AutoCloseable {

  /** A fault and when it was injected ({@link System#nanoTime()}). */
  record Fault(String what, long injectedNanos) {}

  private static final Duration READY = Duration.ofMinutes(10);

  private final Path home;
  private final Path binaries;
  private final int postgresPort;
  private volatile LocalPostgres postgres;
  private final ProcessStack stack;
  private final List<Fault> faults = new ArrayList<>();

  private FaultStack(
      Path home, Path binaries, int postgresPort, LocalPostgres postgres, ProcessStack stack) {
    this.home = home;
    this.binaries = binaries;
    this.postgresPort = postgresPort;
    this.postgres = postgres;
    this.stack = stack;
  }

  /**
   * Starts a stack on a fresh folder.
   *
   * @param replicas replicas of each service (absent: 1)
   * @param properties extra properties for every service
   */
  static FaultStack start(
      Path home, Map<Service, Integer> replicas, Map<String, Object> properties) {
    Path binaries = cacheDir().resolve("pg-binaries");
    int postgresPort = FreePorts.next();
    LocalPostgres postgres = LocalPostgres.start(home.resolve("postgres"), binaries, postgresPort);
    Map<Service, DatabaseAccess> databases = new EnumMap<>(Service.class);
    Map<Service, Integer> ports = new EnumMap<>(Service.class);
    for (Service service : Service.values()) {
      ports.put(service, 0);
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
    Map<String, Object> all = new LinkedHashMap<>();
    // DEVELOPMENT ONLY, as in the embedded stack: tokens for anyone who asks.
    all.put("agentteams.gateway.identity.dev-identity-enabled", true);
    all.put("spring.kafka.consumer.properties.session.timeout.ms", 10_000);
    all.put("spring.kafka.consumer.properties.heartbeat.interval.ms", 1_000);
    // The workloads are many clients from one address; rate limits have their own tests.
    all.put("agentteams.gateway.limits.requests-per-second", 100_000);
    all.put("agentteams.gateway.limits.burst", 100_000);
    all.putAll(properties);
    try {
      ProcessStack stack =
          ProcessStack.start(
              new ProcessStack.Settings(
                  home,
                  System.getProperty("java.class.path"),
                  replicas,
                  ports,
                  0,
                  0,
                  databases,
                  all,
                  true));
      return new FaultStack(home, binaries, postgresPort, postgres, stack);
    } catch (RuntimeException e) {
      postgres.close();
      throw e;
    }
  }

  static Path cacheDir() {
    String configured = System.getProperty("agentteams.cache.dir");
    return configured != null ? Path.of(configured) : Path.of("..", ".cache").toAbsolutePath();
  }

  String gatewayUrl() {
    return stack.url(Service.GATEWAY);
  }

  String kafkaBootstrapServers() {
    return stack.kafkaBootstrapServers();
  }

  ProcessStack processes() {
    return stack;
  }

  /** {@code kill -9} of one replica (numbered from 1); it is started again at once. */
  Fault kill(Service service, int replica) {
    ChildProcess process = stack.replicas(service).get(replica - 1);
    Fault fault = record("kill -9 " + process.name());
    process.kill();
    return fault;
  }

  /** Kafka stopped (gracefully, or with {@code kill -9}) and started again. */
  Fault restartKafka(boolean kill) {
    Fault fault = record((kill ? "kill -9 " : "restart ") + "kafka");
    if (kill) {
      stack.kafka().kill();
    } else {
      stack.kafka().terminate();
    }
    return fault;
  }

  /** Postgres stopped (fast or immediate shutdown) and started again on the same data. */
  Fault restartPostgres(boolean immediate) {
    Fault fault = record("restart postgres (" + (immediate ? "immediate" : "fast") + ")");
    if (immediate) {
      postgres.stopImmediately();
    } else {
      postgres.close();
    }
    postgres = LocalPostgres.start(home.resolve("postgres"), binaries, postgresPort);
    return fault;
  }

  private synchronized Fault record(String what) {
    Fault fault = new Fault(what, System.nanoTime());
    faults.add(fault);
    return fault;
  }

  synchronized List<Fault> faults() {
    return List.copyOf(faults);
  }

  /** Forgets the faults recorded so far (between scenarios on one stack). */
  synchronized void clearFaults() {
    faults.clear();
  }

  /** Waits until every part runs and says it is ready. */
  void awaitReady() {
    stack.awaitReady(READY);
  }

  @Override
  public void close() {
    try {
      stack.close();
    } finally {
      postgres.close();
    }
  }
}
