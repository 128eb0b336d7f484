package io.agentteams.platform.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server from packaged binaries, listening on 127.0.0.1 only. With a stable data
 * directory it keeps its data across restarts. The directory is claimed with a {@link FolderLock}
 * first, so a second start on a directory in use refuses without touching the running server; only
 * then is a postmaster orphaned by a killed owner stopped (see {@link OrphanedPostmaster}). The
 * server is stopped by {@link #close()}, never by a shutdown hook of its own, so that its owner can
 * stop the database's clients first.
 *
 * <p>It commits durably, as a production server does: a commit answers once its WAL is on disk
 * ({@code synchronous_commit=on}, which the packaged builder turns off by default). The services'
 * own choices ({@code SET LOCAL synchronous_commit = off} where losing a commit only repeats work,
 * like a relay's step) therefore behave here as they do in production, and benchmarks that speak of
 * durable commits measure durable commits. It does not zero-fill new WAL segments ({@code
 * wal_init_zero=off}): a fresh server creates all of its segments, and filling each one stalled
 * every commit of the server for tens of milliseconds.
 */
public final class LocalPostgres implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LocalPostgres.class);
  public static final String USER = "postgres";

  /** The prefix of system properties that set further server settings of the embedded Postgres. */
  public static final String SETTING_PREFIX = "agentteams.embedded.postgres.";

  private volatile EmbeddedPostgres postgres;
  private final FolderLock lock;
  private final Path dataDir;
  private final Path binariesDir;
  private final int port;
  private volatile boolean closed;
  private volatile @Nullable ScheduledExecutorService supervisor;

  private LocalPostgres(
      EmbeddedPostgres postgres, FolderLock lock, Path dataDir, Path binariesDir, int port) {
    this.postgres = postgres;
    this.lock = lock;
    this.dataDir = dataDir;
    this.binariesDir = binariesDir;
    this.port = port;
  }

  /**
   * Starts Postgres on the given data directory.
   *
   * @param dataDir the cluster's data directory (created by initdb when new)
   * @param binariesDir where the packaged binaries are extracted once and reused
   * @param port the port, or 0 for any free one
   * @throws FolderLock.FolderInUseException when another owner runs a server on the directory
   */
  public static LocalPostgres start(Path dataDir, Path binariesDir, int port) {
    FolderLock lock = FolderLock.acquire(lockFile(dataDir), "The Postgres data folder " + dataDir);
    try {
      Files.createDirectories(dataDir);
      Files.createDirectories(binariesDir);
      OrphanedPostmaster.resolve(dataDir);
      int chosen = port == 0 ? FreePorts.next() : port;
      EmbeddedPostgres postgres = launch(dataDir, binariesDir, chosen);
      log.info("Postgres listening on 127.0.0.1:{}, data in {}", postgres.getPort(), dataDir);
      return new LocalPostgres(postgres, lock, dataDir, binariesDir, chosen);
    } catch (IOException | RuntimeException e) {
      lock.close();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("could not start Postgres in " + dataDir, io);
      }
      throw (RuntimeException) e;
    }
  }

  private static EmbeddedPostgres launch(Path dataDir, Path binariesDir, int port)
      throws IOException {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDir)
            .setCleanDataDirectory(false)
            // The owner stops the server after its clients (see close()).
            .setRegisterShutdownHook(false)
            .setOverrideWorkingDirectory(binariesDir.toFile())
            .setPort(port)
            .setServerConfig("listen_addresses", "127.0.0.1")
            .setServerConfig("max_connections", "300")
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            // Room for a benchmark's working set (a claim benchmark holds ~160,000 tasks): with
            // 64 MB, statements evicted and wrote back dirty pages on their own time.
            .setServerConfig("shared_buffers", "256MB")
            // A fresh cluster has no old WAL segments to recycle, so it creates every one it
            // fills; zero-filling a 16 MB segment held the WAL write lock for ~45 ms, stalling
            // every commit of the server each time (pg_stat_io: 6 "init" writes, 262 ms, in 4 s
            // of a claim benchmark). Unzeroed segments get their blocks as WAL is written; the
            // commits stay durable. Long-running servers mostly recycle segments instead.
            .setServerConfig("wal_init_zero", "off")
            .setPGStartupWait(Duration.ofSeconds(60));
    extraServerSettings().forEach(builder::setServerConfig);
    return builder.start();
  }

  /**
   * Starts the server again, on the same port and data, if its postmaster is gone (killed, or
   * crashed) while this owner still holds it; Postgres recovers from its WAL as after any crash.
   *
   * @return whether it was started again
   */
  public synchronized boolean restartIfGone() {
    if (closed || postmaster().isPresent()) {
      return false;
    }
    log.warn("Postgres on 127.0.0.1:{} is gone; starting it again on {}", port, dataDir);
    try {
      // Releases the embedded library's hold on the folder; there is no server left to stop.
      postgres.close();
    } catch (IOException | RuntimeException e) {
      log.debug("closing the stopped server: {}", e.toString());
    }
    try {
      OrphanedPostmaster.resolve(dataDir);
      postgres = launch(dataDir, binariesDir, port);
      log.warn("Postgres is back on 127.0.0.1:{}", port);
      return true;
    } catch (IOException | RuntimeException e) {
      log.warn("Postgres did not start again (next try shortly): {}", e.toString());
      return false;
    }
  }

  /**
   * Watches the server every {@code interval} and starts it again when it is gone, until {@link
   * #close()}: the embedded stack's database survives a {@code kill -9} of its postmaster.
   */
  public void superviseEvery(Duration interval) {
    ScheduledExecutorService watch =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "postgres-supervisor");
              thread.setDaemon(true);
              return thread;
            });
    watch.scheduleWithFixedDelay(
        this::restartIfGone, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    supervisor = watch;
  }

  /**
   * Server settings given as system properties {@value #SETTING_PREFIX}{@code <name>=<value>},
   * after (and over) the ones above: e.g. {@code
   * -Dagentteams.embedded.postgres.shared_preload_libraries=pg_stat_statements} for statement
   * statistics.
   */
  static Map<String, String> extraServerSettings() {
    Map<String, String> settings = new TreeMap<>();
    System.getProperties()
        .forEach(
            (key, value) -> {
              String name = key.toString();
              if (name.startsWith(SETTING_PREFIX) && name.length() > SETTING_PREFIX.length()) {
                settings.put(name.substring(SETTING_PREFIX.length()), value.toString());
              }
            });
    return settings;
  }

  private static Path lockFile(Path dataDir) {
    Path absolute = dataDir.toAbsolutePath().normalize();
    return absolute.resolveSibling(absolute.getFileName() + ".lock");
  }

  /**
   * Stops a postmaster that a killed owner left running on this data directory, so that a new
   * server can take the directory over; a pid file naming any other process is removed and that
   * process left alone. Call it only while holding the directory (no live owner runs it).
   */
  public static OrphanedPostmaster.Outcome stopOrphanedPostmaster(Path dataDir) throws IOException {
    try (FolderLock held =
        FolderLock.acquire(lockFile(dataDir), "The Postgres data folder " + dataDir)) {
      return OrphanedPostmaster.resolve(dataDir);
    }
  }

  /** The port the server listens on. */
  public int port() {
    return port;
  }

  /** Creates the database unless it exists. */
  public void createDatabase(String name) {
    if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("not a plain database name: " + name);
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, "");
        Statement s = c.createStatement()) {
      var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'");
      if (!rs.next()) {
        s.execute("CREATE DATABASE " + name);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not create database " + name, e);
    }
  }

  /** A JDBC URL for the database. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database;
  }

  /** An R2DBC URL for the database. */
  public String r2dbcUrl(String database) {
    return "r2dbc:postgresql://127.0.0.1:" + port() + "/" + database;
  }

  /**
   * Writes every dirty buffer out now, so that the shutdown checkpoint has little left to do: the
   * embedded library gives a fast shutdown five seconds, which a loaded machine can need for a
   * checkpoint of the whole buffer cache, and then reports it as failed.
   */
  private void checkpoint() {
    if (postmaster().isEmpty()) {
      return;
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, "");
        Statement s = c.createStatement()) {
      s.execute("CHECKPOINT");
    } catch (SQLException e) {
      log.debug("no checkpoint before stopping: {}", e.toString());
    }
  }

  /** The postmaster's process, while it runs. */
  public Optional<ProcessHandle> postmaster() {
    try {
      List<String> lines =
          Files.readAllLines(dataDir.resolve("postmaster.pid"), StandardCharsets.US_ASCII);
      return lines.isEmpty()
          ? Optional.empty()
          : ProcessHandle.of(Long.parseLong(lines.get(0).trim())).filter(ProcessHandle::isAlive);
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Stops the server in Postgres' immediate mode (SIGQUIT: every process exits at once and the next
   * start recovers from the WAL), as a crash would, and releases the directory.
   */
  public void stopImmediately() {
    stopSupervising();
    Optional<ProcessHandle> postmaster = postmaster();
    if (postmaster.isPresent()) {
      try {
        new ProcessBuilder("kill", "-QUIT", Long.toString(postmaster.get().pid()))
            .inheritIO()
            .start()
            .waitFor(10, TimeUnit.SECONDS);
        postmaster.get().onExit().get(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while stopping Postgres", e);
      } catch (Exception e) {
        postmaster.get().destroyForcibly();
      }
    }
    // Releases the embedded library's own lock on the folder; its stop command finds nothing left
    // to stop.
    close();
  }

  /** No restart from here on: the owner stops the server. */
  private void stopSupervising() {
    ScheduledExecutorService watch = supervisor;
    if (watch != null) {
      watch.shutdownNow();
    }
    synchronized (this) {
      closed = true;
    }
  }

  /** How often a stop looks whether the postmaster has exited. */
  private static final Duration EXIT_CHECK = Duration.ofMillis(50);

  /** How long a stop waits for the postmaster to exit. */
  private static final Duration EXIT_PATIENCE = Duration.ofSeconds(60);

  /** Stops the server (fast shutdown: clients are disconnected, data is checkpointed). */
  @Override
  public void close() {
    stopSupervising();
    checkpoint();
    Optional<ProcessHandle> running = postmaster();
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      // The embedded library waits five seconds for the fast shutdown; a loaded machine can need
      // longer, and the server goes on stopping: wait for it, so nothing outlives its owner.
      running.ifPresent(LocalPostgres::awaitExit);
      lock.close();
    }
  }

  /**
   * Whether the process still runs. One that has exited stays a zombie until its parent (init, for
   * a postmaster whose pg_ctl is gone) collects it, which {@link ProcessHandle#isAlive()} counts as
   * alive: on Linux its state in {@code /proc} says so.
   */
  private static boolean stillRuns(ProcessHandle process) {
    if (!process.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      // "pid (command) state ...": the command may hold spaces and parentheses.
      int command = stat.lastIndexOf(')');
      return command < 0 || command + 2 >= stat.length() || stat.charAt(command + 2) != 'Z';
    } catch (IOException e) {
      // No /proc (not Linux), or the process is gone since.
      return process.isAlive();
    }
  }

  /**
   * Looks at the postmaster every {@link #EXIT_CHECK}. It is not this JVM's child (pg_ctl starts
   * it), and {@code ProcessHandle.onExit()} of a process that is not polls it with growing pauses:
   * the stop of the run command's stack ended nearly two seconds after Postgres had.
   */
  private static void awaitExit(ProcessHandle postmaster) {
    long deadline = System.nanoTime() + EXIT_PATIENCE.toNanos();
    try {
      while (stillRuns(postmaster)) {
        if (System.nanoTime() - deadline > 0) {
          log.warn(
              "Postgres (pid {}) did not stop within {} s",
              postmaster.pid(),
              EXIT_PATIENCE.toSeconds());
          return;
        }
        TimeUnit.MILLISECONDS.sleep(EXIT_CHECK.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
