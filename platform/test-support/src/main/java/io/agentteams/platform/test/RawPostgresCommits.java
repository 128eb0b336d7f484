package io.agentteams.platform.test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The database's own floor for a benchmark: durable single-statement commits of a 1 KB row, with a
 * number of writers each on its own connection and nothing else (no outbox, no relay, no Kafka), on
 * the same Postgres the benchmark's service uses.
 */
public final class RawPostgresCommits {

  private static final String FILLER = "x".repeat(1024 - 36);

  private RawPostgresCommits() {}

  /**
   * Commits per second, measured in a second round after a first that warms up.
   *
   * @param database a database of the benchmark's Postgres (a table of its own is created)
   * @param writers concurrent writers, each committing one row at a time
   * @param rows rows per round
   */
  public static double perSecond(Database database, int writers, int rows) throws Exception {
    try (Connection c = connect(database);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS raw_commit (id text PRIMARY KEY, payload text NOT NULL)");
    }
    double perSecond = 0;
    for (int round = 0; round < 2; round++) {
      AtomicInteger left = new AtomicInteger(rows);
      List<Thread> threads = new ArrayList<>();
      List<Exception> failures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        threads.add(
            new Thread(
                () -> {
                  try (Connection c = connect(database);
                      PreparedStatement insert =
                          c.prepareStatement(
                              "INSERT INTO raw_commit (id, payload) VALUES (?, ?)")) {
                    while (left.getAndDecrement() > 0) {
                      String id = UUID.randomUUID().toString();
                      insert.setString(1, id);
                      insert.setString(2, id + FILLER);
                      insert.executeUpdate();
                    }
                  } catch (SQLException e) {
                    synchronized (failures) {
                      failures.add(e);
                    }
                  }
                },
                "raw-commit-" + w));
      }
      long start = System.nanoTime();
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join();
      }
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
      perSecond = rows / ((System.nanoTime() - start) / 1e9);
    }
    return perSecond;
  }

  private static Connection connect(Database database) throws SQLException {
    // Autocommit: every INSERT is its own durable commit.
    return DriverManager.getConnection(
        database.jdbcUrl(), database.username(), database.password());
  }
}
