package io.agentteams.devstack.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The work a stack still owes after its load stopped: outbox rows not yet published, jobs not yet
 * finished, events its consumer groups have not yet read. An idle measurement waits until there is
 * none, or it would measure a backlog being worked off; a step reports what it left behind, since a
 * step whose consumers fall behind has not held its load however fast its calls were answered.
 */
final class StackBacklog implements AutoCloseable {

  private static final List<String> DATABASES =
      List.of("team", "mailbox", "taskboard", "scheduler");

  private final int postgresPort;
  private final Admin kafka;

  StackBacklog(int postgresPort, int kafkaPort) {
    this.postgresPort = postgresPort;
    this.kafka =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + kafkaPort,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000));
  }

  /** What is owed now. */
  record Owed(long outboxRows, long unfinishedJobs, long consumerLag) {

    boolean none() {
      return outboxRows == 0 && unfinishedJobs == 0 && consumerLag == 0;
    }

    @Override
    public String toString() {
      return outboxRows
          + " outbox rows, "
          + unfinishedJobs
          + " unfinished jobs, "
          + consumerLag
          + " events not yet consumed";
    }
  }

  Owed owed() {
    long rows = 0;
    long jobs = 0;
    for (String database : DATABASES) {
      rows += count(database, "SELECT count(*) FROM platform.outbox WHERE status = 'PENDING'");
    }
    jobs +=
        count(
            "scheduler",
            "SELECT count(*) FROM job WHERE state IN ('queued', 'admitted', 'running', 'unknown')");
    return new Owed(rows, jobs, consumerLag());
  }

  /** Waits up to {@code patience} for nothing to be owed; returns what is owed at the end. */
  Owed awaitNone(Duration patience) {
    long end = System.nanoTime() + patience.toNanos();
    Owed owed = owed();
    while (!owed.none() && System.nanoTime() < end) {
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
      owed = owed();
    }
    return owed;
  }

  private long count(String database, String sql) {
    String url = "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + database;
    try (Connection connection = DriverManager.getConnection(url, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    } catch (SQLException e) {
      return 0;
    }
  }

  /**
   * Events of the services' consumer groups not yet committed as read, summed (groups commit every
   * second, so a group that keeps up shows a second's worth at most; the gateway's feed commits
   * nothing and is left out).
   */
  private long consumerLag() {
    try {
      long lag = 0;
      for (ConsumerGroupListing group :
          kafka.listConsumerGroups().all().get(30, TimeUnit.SECONDS)) {
        if (group.groupId().startsWith("ui-gateway.feed")) {
          continue;
        }
        Map<TopicPartition, OffsetAndMetadata> committed =
            kafka
                .listConsumerGroupOffsets(group.groupId())
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
            kafka.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        for (var entry : committed.entrySet()) {
          if (entry.getValue() != null && ends.containsKey(entry.getKey())) {
            lag += Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset());
          }
        }
      }
      return lag;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    } catch (ExecutionException | TimeoutException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    kafka.close(Duration.ofSeconds(5));
  }
}
