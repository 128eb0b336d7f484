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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server from packaged binaries, listening on 127.0.0.1 only. With a stable data
 * directory it keeps its data across restarts; a postmaster orphaned by a killed JVM is stopped
 * before a new one starts on the same directory.
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

  private final EmbeddedPostgres postgres;

  private LocalPostgres(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /**
   * Starts Postgres on the given data directory.
   *
   * @param dataDir the cluster's data directory (created by initdb when new)
   * @param binariesDir where the packaged binaries are extracted once and reused
   * @param port the port, or 0 for any free one
   */
  public static LocalPostgres start(Path dataDir, Path binariesDir, int port) {
    try {
      Files.createDirectories(dataDir);
      Files.createDirectories(binariesDir);
      stopOrphanedPostmaster(dataDir);
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDir)
              .setCleanDataDirectory(false)
              .setOverrideWorkingDirectory(binariesDir.toFile())
              .setPort(port == 0 ? FreePorts.next() : port)
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
              .setPGStartupWait(Duration.ofSeconds(60))
              .start();
      log.info("Postgres listening on 127.0.0.1:{}, data in {}", postgres.getPort(), dataDir);
      return new LocalPostgres(postgres);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start Postgres in " + dataDir, e);
    }
  }

  /**
   * Stops a postmaster that a killed JVM left running on this data directory, so that the new
   * server can take the directory over.
   */
  public static void stopOrphanedPostmaster(Path dataDir) throws IOException {
    Path pidFile = dataDir.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
    Optional<ProcessHandle> postmaster =
        lines.isEmpty() ? Optional.empty() : ProcessHandle.of(Long.parseLong(lines.get(0).trim()));
    if (postmaster.isPresent() && postmaster.get().isAlive()) {
      log.warn("Stopping orphaned postmaster {} on {}", postmaster.get().pid(), dataDir);
      postmaster.get().destroy();
      try {
        postmaster.get().onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        postmaster.get().destroyForcibly();
      }
    }
    Files.deleteIfExists(pidFile);
  }

  /** The port the server listens on. */
  public int port() {
    return postgres.getPort();
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

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
