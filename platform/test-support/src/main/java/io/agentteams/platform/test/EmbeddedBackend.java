package io.agentteams.platform.test;

import io.agentteams.platform.embedded.LocalKafka;
import io.agentteams.platform.embedded.LocalPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Kafka in KRaft mode inside this JVM and Postgres from packaged binaries, both on loopback. Data
 * lives under the cache folder and is removed on exit; data left by a JVM that was killed is
 * cleaned up (and its postmaster stopped) by the next run.
 */
final class EmbeddedBackend implements Backend {

  private static final String OWNER_FILE = "owner.pid";

  /**
   * A run folder without its owner file is another JVM's that is still writing it, unless it is
   * older than this (test JVMs of several modules start side by side under {@code mvn -T}).
   */
  private static final Duration SETTING_UP = Duration.ofMinutes(2);

  private final Path runDir;
  private final LocalKafka kafka;
  private final LocalPostgres postgres;

  EmbeddedBackend(Path cacheDir) {
    Path testRoot = cacheDir.resolve("test-infra");
    reapOrphans(testRoot);
    runDir = testRoot.resolve(UUID.randomUUID().toString());
    try {
      Files.createDirectories(runDir);
      // Written aside and moved into place, so another JVM reaping orphans never reads it half
      // written (an empty pid would read as an owner that is gone).
      Path pending = runDir.resolve(OWNER_FILE + ".pending");
      Files.writeString(pending, Long.toString(ProcessHandle.current().pid()));
      Files.move(pending, runDir.resolve(OWNER_FILE), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    postgres = LocalPostgres.start(runDir.resolve("pg"), cacheDir.resolve("pg-binaries"), 0);
    kafka = LocalKafka.start(runDir.resolve("kafka"), 0, 0, 4);
  }

  @Override
  public String kafkaBootstrapServers() {
    return kafka.bootstrapServers();
  }

  @Override
  public Database database(String name) {
    postgres.createDatabase(name);
    return new Database(
        name, postgres.jdbcUrl(name), postgres.r2dbcUrl(name), LocalPostgres.USER, "");
  }

  @Override
  public String kind() {
    return "embedded";
  }

  @Override
  public void close() {
    try {
      kafka.close();
    } finally {
      postgres.close();
      discard(runDir);
    }
  }

  /**
   * Deletes the run folder in a process of its own: on a busy disk deleting Kafka's and Postgres's
   * files took longer than the 30 s a test JVM is given to end. Whatever is left when the next JVM
   * starts is an orphan (its owner is gone) and reaped then.
   */
  private static void discard(Path root) {
    try {
      new ProcessBuilder("rm", "-rf", "--", root.toString())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException noRm) {
      deleteTree(root);
    }
  }

  /** Removes run folders whose owning JVM is gone, stopping any postmaster it left running. */
  private static void reapOrphans(Path testRoot) {
    if (!Files.isDirectory(testRoot)) {
      return;
    }
    try (Stream<Path> runs = Files.list(testRoot)) {
      runs.filter(EmbeddedBackend::ownerIsGone).forEach(EmbeddedBackend::reap);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean ownerIsGone(Path run) {
    try {
      Path owner = run.resolve(OWNER_FILE);
      if (!Files.exists(owner)) {
        Instant made = Files.getLastModifiedTime(run).toInstant();
        return made.plus(SETTING_UP).isBefore(Instant.now());
      }
      long pid = Long.parseLong(Files.readString(owner, StandardCharsets.US_ASCII).trim());
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      return handle.isEmpty() || !handle.get().isAlive();
    } catch (IOException | NumberFormatException e) {
      return true;
    }
  }

  /**
   * Reaps an orphaned run folder once. JVMs starting side by side find the same orphans: stopping
   * its postmaster is guarded by the folder's lock (and checks the process is a postmaster of that
   * very path, so it comes first), then each JVM takes the folder by renaming it — only one rename
   * succeeds — and deletes only what it took.
   */
  private static void reap(Path run) {
    try {
      LocalPostgres.stopOrphanedPostmaster(run.resolve("pg"));
    } catch (IOException | RuntimeException e) {
      // Another JVM reaps it, or a postmaster that refused to stop has nothing left to serve.
    }
    Path taken =
        run.resolveSibling(run.getFileName() + ".reaped-by-" + ProcessHandle.current().pid());
    try {
      Files.move(run, taken, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException anotherJvmTookIt) {
      return;
    }
    deleteTree(taken);
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
