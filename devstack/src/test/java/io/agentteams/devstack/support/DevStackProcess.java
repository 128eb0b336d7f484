package io.agentteams.devstack.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.DevStack;
import io.agentteams.platform.embedded.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The run command's launcher ({@link DevStack}) in a JVM of its own, as a user starts it, on a data
 * folder and loopback ports of the test's choosing; its output goes to a file the test reads.
 */
public final class DevStackProcess implements AutoCloseable {

  /** How long a stop may take before the process is killed: the run command stops in seconds. */
  private static final Duration STOP = Duration.ofMinutes(2);

  private final Process process;
  private final ProcessHandle stack;
  private final Path output;
  private final Map<String, String> settings;

  private DevStackProcess(
      Process process, ProcessHandle stack, Path output, Map<String, String> settings) {
    this.process = process;
    this.stack = stack;
    this.output = output;
    this.settings = settings;
  }

  /** Free loopback ports for every part, on the given data folder. */
  public static Map<String, String> freshSettings(Path dir) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("agentteams.devstack.dir", dir.toString());
    for (String port :
        List.of(
            "postgres-port",
            "kafka-port",
            "kafka-controller-port",
            "port.ui-gateway",
            "port.team-service",
            "port.mailbox-service",
            "port.task-board-service",
            "port.scheduler-service",
            "port.ui-gateway-management")) {
      settings.put("agentteams.devstack." + port, Integer.toString(FreePorts.next()));
    }
    return settings;
  }

  /**
   * Launches it with the run command's JVM options ({@code devstack/run-command.jvm}); {@code name}
   * names its output file.
   */
  public static DevStackProcess launch(String name, Map<String, String> settings) {
    return launch(name, settings, List.of());
  }

  /** Launches it with the run command's JVM options and {@code jvmOptions} after them. */
  public static DevStackProcess launch(
      String name, Map<String, String> settings, List<String> jvmOptions) {
    return start(name, command(settings, jvmOptions), false, Map.copyOf(settings));
  }

  /**
   * Launches it as the run command does: as the child of another process (Maven there, a shell
   * here) and with {@code stop-with-parent}, so that a SIGTERM to the parent alone ({@link
   * #terminate()}) stops it.
   */
  public static DevStackProcess launchUnderParent(String name, Map<String, String> settings) {
    List<String> command = new ArrayList<>(List.of("sh", "-c", "\"$@\" & wait", "sh"));
    command.addAll(command(settings, List.of("-Dagentteams.devstack.stop-with-parent=true")));
    return start(name, command, true, Map.copyOf(settings));
  }

  private static List<String> command(Map<String, String> settings, List<String> jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("@" + runCommandJvmOptions());
    command.addAll(jvmOptions);
    settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(DevStack.class.getName());
    return command;
  }

  private static DevStackProcess start(
      String name, List<String> command, boolean underParent, Map<String, String> settings) {
    Path output = Path.of("target", "devstack-" + name + ".out").toAbsolutePath();
    try {
      Files.deleteIfExists(output);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      ProcessHandle stack = process.toHandle();
      if (underParent) {
        stack =
            await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> process.toHandle().children().findFirst(), Optional::isPresent)
                .orElseThrow();
      }
      return new DevStackProcess(process, stack, output, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file holding the run command's JVM options (an argument file of the java launcher). */
  public static Path runCommandJvmOptions() {
    Path file =
        Path.of(System.getProperty("agentteams.devstack.run-command-jvm", "run-command.jvm"))
            .toAbsolutePath();
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          "the run command's JVM options are not at "
              + file
              + " (set agentteams.devstack.run-command-jvm)");
    }
    return file;
  }

  /** Waits for the banner that says the stack is up. */
  public DevStackProcess awaitUp(Duration timeout) {
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(
                    "the stack ended with " + process.exitValue() + ":\n" + output());
              }
              return output().contains("Agent Teams is up");
            });
    return this;
  }

  public String gatewayUrl() {
    return "http://127.0.0.1:" + settings.get("agentteams.devstack.port.ui-gateway");
  }

  /** The port of the stack's Postgres. */
  public int postgresPort() {
    return Integer.parseInt(settings.get("agentteams.devstack.postgres-port"));
  }

  /** The port of the stack's Kafka broker. */
  public int kafkaPort() {
    return Integer.parseInt(settings.get("agentteams.devstack.kafka-port"));
  }

  /** The stack's Postgres data folder. */
  public Path postgresData() {
    return Path.of(settings.get("agentteams.devstack.dir")).resolve("postgres");
  }

  /** The stack's process id (not its parent's, when it has one of the test's). */
  public long pid() {
    return stack.pid();
  }

  /** The stack's process. */
  public ProcessHandle stack() {
    return stack;
  }

  public boolean isAlive() {
    return stack.isAlive();
  }

  /** Everything it printed so far. */
  public String output() {
    try {
      return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for it to end and returns its exit code. */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("still running after " + timeout + ":\n" + output());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits for the stack to end when it runs under a parent of the test's (whose exit code is not
   * the stack's).
   */
  public void awaitStackGone(Duration timeout) {
    await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> !stack.isAlive());
  }

  /** SIGTERM (to the parent alone, when it has one), as Ctrl+C or an orchestrator sends. */
  public void terminate() {
    process.destroy();
  }

  /**
   * Stops it, whatever it has got to: up, still starting (a start that timed out) or stuck. Asked
   * first, as a user does; killed if it does not stop in time, its Postgres with it (a killed stack
   * cannot stop the Postgres it started).
   */
  @Override
  public void close() {
    boolean stopped = stop(process.toHandle()) & stop(stack);
    if (!stopped) {
      postmaster().ifPresent(DevStackProcess::kill);
    }
  }

  /** Whether it stopped when asked. */
  private static boolean stop(ProcessHandle process) {
    if (!process.isAlive()) {
      return true;
    }
    process.destroy();
    if (endsWithin(process, STOP)) {
      return true;
    }
    kill(process);
    return false;
  }

  private static void kill(ProcessHandle process) {
    process.destroyForcibly();
    if (!endsWithin(process, STOP)) {
      throw new IllegalStateException("process " + process.pid() + " outlived a kill");
    }
  }

  private static boolean endsWithin(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The stack's Postgres server, if one runs on its data folder. */
  private Optional<ProcessHandle> postmaster() {
    Path pidFile = postgresData().resolve("postmaster.pid");
    try {
      return Files.isRegularFile(pidFile)
          ? ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim()))
          : Optional.empty();
    } catch (IOException | RuntimeException unreadable) {
      // Written as the server starts: one that is half written names no server yet.
      return Optional.empty();
    }
  }
}
