package io.agentteams.platform.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deals with the {@code postmaster.pid} a killed owner left in a data folder. Process ids are
 * reused, so the file's process is stopped only when it is provably a postmaster of this very
 * folder (its executable is {@code postgres}, its {@code -D} names the folder, and it started when
 * the file says); a process that provably is not is left alone, and the stale file is removed and
 * reported. The caller must hold the folder's {@link FolderLock}, so that no live owner is running
 * it.
 */
public final class OrphanedPostmaster {

  private static final Logger log = LoggerFactory.getLogger(OrphanedPostmaster.class);
  private static final Duration START_TIME_TOLERANCE = Duration.ofSeconds(5);

  /** What was found and done. */
  public enum Action {
    /** No pid file. */
    NONE,
    /** The pid file named a process that no longer runs; the file was removed. */
    GONE,
    /** The pid file named a postmaster of this folder, which was stopped. */
    STOPPED,
    /** The pid file named a process that is not a postmaster of this folder; left running. */
    IGNORED
  }

  /**
   * The outcome.
   *
   * @param action what was done
   * @param pid the process the file named, or 0
   * @param reason why, in words, for the log and the caller
   */
  public record Outcome(Action action, long pid, String reason) {}

  private OrphanedPostmaster() {}

  /**
   * Checks the data folder's pid file and acts on it.
   *
   * @throws IllegalStateException when the named process runs but cannot be examined, so that it
   *     can neither be stopped safely nor its pid file removed
   */
  public static Outcome resolve(Path dataDir) throws IOException {
    Path pidFile = dataDir.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return new Outcome(Action.NONE, 0, "no postmaster.pid");
    }
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
    long pid = lines.isEmpty() ? 0 : parse(lines.get(0));
    Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
    if (process.isEmpty() || !process.get().isAlive()) {
      Files.deleteIfExists(pidFile);
      return new Outcome(Action.GONE, pid, "process " + pid + " no longer runs");
    }
    Optional<String> notOurs = notAPostmasterOf(process.get(), dataDir, lines);
    if (notOurs.isPresent()) {
      log.warn(
          "Ignoring stale {}: process {} is {}; it is left running", pidFile, pid, notOurs.get());
      Files.deleteIfExists(pidFile);
      return new Outcome(Action.IGNORED, pid, notOurs.get());
    }
    log.warn("Stopping orphaned postmaster {} on {}", pid, dataDir);
    process.get().destroy();
    try {
      process.get().onExit().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      process.get().destroyForcibly();
    }
    Files.deleteIfExists(pidFile);
    return new Outcome(Action.STOPPED, pid, "an orphaned postmaster of " + dataDir);
  }

  /**
   * Why the process is not a postmaster of the folder, or empty when it is one.
   *
   * @throws IllegalStateException when the process cannot be examined
   */
  static Optional<String> notAPostmasterOf(
      ProcessHandle process, Path dataDir, List<String> pidLines) {
    ProcessHandle.Info info = process.info();
    Optional<String> command = info.command();
    Optional<String[]> arguments = info.arguments();
    if (command.isEmpty() || arguments.isEmpty()) {
      throw new IllegalStateException(
          "process "
              + process.pid()
              + " named by "
              + dataDir.resolve("postmaster.pid")
              + " runs, but this user cannot see what it is; stop it yourself if it is a"
              + " postmaster of this folder, or remove the file if it is not");
    }
    String executable = Path.of(command.get()).getFileName().toString();
    String described = command.get() + " " + String.join(" ", arguments.get());
    if (!executable.equals("postgres")) {
      return Optional.of("'" + abbreviate(described) + "', not a postmaster");
    }
    String[] args = arguments.get();
    boolean thisFolder = false;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-D") && sameFolder(Path.of(args[i + 1]), dataDir)) {
        thisFolder = true;
      }
    }
    if (!thisFolder) {
      return Optional.of("a postmaster of another folder ('" + abbreviate(described) + "')");
    }
    Optional<Instant> started = info.startInstant();
    if (started.isPresent() && pidLines.size() > 2) {
      long recorded = parse(pidLines.get(2));
      Duration apart = Duration.between(Instant.ofEpochSecond(recorded), started.get()).abs();
      if (recorded > 0 && apart.compareTo(START_TIME_TOLERANCE) > 0) {
        return Optional.of(
            "a postmaster of this folder started at "
                + started.get()
                + ", not the one the file records (started "
                + Instant.ofEpochSecond(recorded)
                + ")");
      }
    }
    return Optional.empty();
  }

  private static boolean sameFolder(Path a, Path b) {
    if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
      return true;
    }
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  private static long parse(String line) {
    try {
      return Long.parseLong(line.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 120 ? text : text.substring(0, 117) + "...";
  }
}
