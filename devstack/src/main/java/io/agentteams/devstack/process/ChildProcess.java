package io.agentteams.devstack.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One part of the stack in a process of its own, with its output appended to a log file. Unless
 * told otherwise it is started again whenever it ends without being asked to (as an orchestrator
 * would), so that anyone may {@code kill -9} it and watch the stack recover.
 */
public final class ChildProcess implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final Duration QUICK_END = Duration.ofSeconds(10);
  private static final Duration QUICK_END_DELAY = Duration.ofSeconds(2);

  private final String name;
  private final List<String> command;
  private final Path logFile;
  private final BooleanSupplier ready;
  private final boolean restartOnExit;
  private final AtomicInteger starts = new AtomicInteger();
  private volatile Process process;
  private volatile boolean stopping;
  private volatile boolean closed;
  private volatile long startedNanos;

  /**
   * @param name how logs and messages name it
   * @param command the command line
   * @param logFile where its output goes (appended)
   * @param ready whether it is ready to do its work (asked while it runs)
   * @param restartOnExit whether to start it again when it ends unasked
   */
  public ChildProcess(
      String name,
      List<String> command,
      Path logFile,
      BooleanSupplier ready,
      boolean restartOnExit) {
    this.name = name;
    this.command = List.copyOf(command);
    this.logFile = logFile;
    this.ready = ready;
    this.restartOnExit = restartOnExit;
  }

  /** Starts the process (it must not be running, and not be closed). */
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException(name + " was stopped for good");
    }
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is already running as " + process.pid());
    }
    stopping = false;
    try {
      Files.createDirectories(logFile.toAbsolutePath().getParent());
      Process started =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
              .start();
      process = started;
      startedNanos = System.nanoTime();
      Files.writeString(pidFile(), Long.toString(started.pid()));
      starts.incrementAndGet();
      log.info("Started {} (pid {}, log {})", name, started.pid(), logFile);
      started.onExit().thenAccept(this::exited);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  private void exited(Process ended) {
    if (stopping || ended != process) {
      return;
    }
    int code = ended.exitValue();
    if (!restartOnExit) {
      log.warn("{} (pid {}) ended with exit code {}", name, ended.pid(), code);
      return;
    }
    // A part that dies at once after a start is not started again in a tight loop.
    long upMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    long delay = upMillis >= QUICK_END.toMillis() ? 0 : QUICK_END_DELAY.toMillis();
    log.warn(
        "{} (pid {}) ended with exit code {}; starting it again{}",
        name,
        ended.pid(),
        code,
        delay == 0 ? "" : " in " + delay + " ms");
    Thread restart =
        new Thread(
            () -> {
              try {
                Thread.sleep(delay);
                synchronized (this) {
                  if (!stopping && process == ended) {
                    start();
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (RuntimeException e) {
                log.error("could not start {} again", name, e);
              }
            },
            "restart-" + name);
    restart.setDaemon(true);
    restart.start();
  }

  /**
   * Waits until it is running and ready.
   *
   * @throws IllegalStateException when it is not ready in time, naming its log
   */
  public void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Process current = process;
      if (current != null && current.isAlive() && ready.getAsBoolean()) {
        return;
      }
      if (current != null && !current.isAlive() && !restartOnExit) {
        throw new IllegalStateException(
            name + " ended with exit code " + current.exitValue() + "; see " + logFile);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
    throw new IllegalStateException(name + " was not ready within " + timeout + "; see " + logFile);
  }

  /** Whether it runs and says it is ready, right now. */
  public boolean isReady() {
    Process current = process;
    return current != null && current.isAlive() && ready.getAsBoolean();
  }

  /**
   * {@code kill -9}: the process ends at once, with no shutdown of any kind. It is started again if
   * it restarts on exit.
   */
  public void kill() {
    Process current = process;
    if (current == null) {
      return;
    }
    log.info("Killing {} (pid {}) with SIGKILL", name, current.pid());
    current.destroyForcibly();
    waitFor(current, STOP_GRACE);
  }

  /**
   * SIGTERM, then waits for a graceful end (SIGKILL if it does not come). It is started again if it
   * restarts on exit, as in a rolling restart.
   */
  public void terminate() {
    Process current = process;
    if (current == null) {
      return;
    }
    log.info("Stopping {} (pid {}) with SIGTERM", name, current.pid());
    current.destroy();
    if (!waitFor(current, STOP_GRACE)) {
      current.destroyForcibly();
      waitFor(current, STOP_GRACE);
    }
  }

  private static boolean waitFor(Process process, Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public String name() {
    return name;
  }

  /** The running process, if any. */
  public Optional<ProcessHandle> handle() {
    Process current = process;
    return current == null || !current.isAlive()
        ? Optional.empty()
        : Optional.of(current.toHandle());
  }

  /** How many times it was started, the first included. */
  public int starts() {
    return starts.get();
  }

  public Path logFile() {
    return logFile;
  }

  /** Where the running process' id is kept, beside its log, for whoever finds it orphaned. */
  Path pidFile() {
    return logFile.resolveSibling(name + ".pid");
  }

  /** Stops it for good: SIGTERM, a graceful end, SIGKILL if it does not come. */
  @Override
  public void close() {
    stopping = true;
    synchronized (this) {
      closed = true;
      Process current = process;
      if (current != null && current.isAlive()) {
        current.destroy();
        if (!waitFor(current, STOP_GRACE)) {
          log.warn("{} did not stop within {}; killing it", name, STOP_GRACE);
          current.destroyForcibly();
          waitFor(current, STOP_GRACE);
        }
        log.info("Stopped {}", name);
      }
    }
  }
}
