package io.agentteams.scheduler.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.platform.embedded.FreePorts;
import io.agentteams.platform.test.Database;
import io.agentteams.scheduler.SchedulerApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Another replica of scheduler-service in its own JVM, on the same database and broker as the
 * test's own replica, so that it can be killed with SIGKILL mid-work and started again.
 */
public final class ReplicaProcess implements AutoCloseable {

  private final String name;
  private final int port;
  private final List<String> command;
  private final Path log;
  private Process process;

  private ReplicaProcess(String name, int port, List<String> command, Path log) {
    this.name = name;
    this.port = port;
    this.command = command;
    this.log = log;
  }

  /** Starts a replica named {@code name} and waits until it is ready. */
  public static ReplicaProcess start(
      String name, Database database, String kafka, Map<String, String> properties) {
    int port = FreePorts.next();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx384m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SchedulerApplication.class.getName());
    Map<String, String> args = new java.util.LinkedHashMap<>();
    // TEST ONLY keys of this JVM: the replica verifies the tests' internal tokens like its peer.
    io.agentteams.platform.testidentity.TestIdentity.allProperties()
        .forEach((key, value) -> args.put(key, value.toString()));
    args.put("server.port", Integer.toString(port));
    args.put("spring.r2dbc.url", database.r2dbcUrl());
    args.put("spring.r2dbc.username", database.username());
    args.put("spring.r2dbc.password", database.password());
    args.put("spring.flyway.url", database.jdbcUrl());
    args.put("spring.flyway.user", database.username());
    args.put("spring.flyway.password", database.password());
    args.put("spring.kafka.bootstrap-servers", kafka);
    // A killed replica's roster partitions move to the survivor after this, not 45 s.
    args.put("spring.kafka.consumer.properties.session.timeout.ms", "6000");
    args.put("spring.kafka.consumer.properties.heartbeat.interval.ms", "1000");
    args.put("agentteams.scheduler.replica-id", name);
    args.putAll(properties);
    args.forEach((key, value) -> command.add("--" + key + "=" + value));
    Path log = Path.of("target", "replica-" + name + ".log");
    ReplicaProcess replica = new ReplicaProcess(name, port, List.copyOf(command), log);
    replica.launch();
    return replica;
  }

  private void launch() {
    try {
      Files.createDirectories(log.getParent());
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start replica " + name, e);
    }
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(this::ready);
  }

  private boolean ready() {
    if (!process.isAlive()) {
      throw new IllegalStateException("replica " + name + " exited; see " + log.toAbsolutePath());
    }
    try {
      return WebClient.create(baseUrl())
          .get()
          .uri("/actuator/health/readiness")
          .retrieve()
          .toBodilessEntity()
          .map(response -> response.getStatusCode().is2xxSuccessful())
          .onErrorReturn(false)
          .block(Duration.ofSeconds(2));
    } catch (RuntimeException e) {
      return false;
    }
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  public String name() {
    return name;
  }

  /** SIGKILL: no shutdown hook, no graceful stop, transactions in flight die with it. */
  public void kill() {
    process.destroyForcibly();
    waitFor();
  }

  /** Starts it again on the same port. */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("replica " + name + " is still running");
    }
    launch();
  }

  private void waitFor() {
    try {
      process.waitFor(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops it gracefully, so it leaves its consumer group at once. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      process.destroy();
      waitFor();
      if (process.isAlive()) {
        kill();
      }
    }
  }
}
