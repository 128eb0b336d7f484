package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * The per-team windows of recent events this replica keeps for replay: which partition holds each
 * team's events, where this replica started reading each, and the bounds on how many teams and how
 * many bytes it keeps (least recently used teams' windows go first).
 */
final class TeamWindows {

  private final StreamProperties properties;
  private final Map<String, TeamWindow> windows;
  private final Map<TopicPartition, Long> startPositions = new ConcurrentHashMap<>();
  private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();
  // Per partition, the offset up to which events of dropped windows are gone: a window made again
  // for a team on that partition vouches only for what comes after it.
  private final Map<TopicPartition, Long> droppedUpTo = new ConcurrentHashMap<>();
  private final AtomicLong retained = new AtomicLong();

  TeamWindows(StreamProperties properties) {
    this.properties = properties;
    this.windows =
        Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, TeamWindow> eldest) {
                if (size() <= properties.maxTeams()) {
                  return false;
                }
                dropped(eldest.getKey(), eldest.getValue());
                return true;
              }
            });
  }

  /** The teams whose windows are kept. */
  int teams() {
    return windows.size();
  }

  /** The bytes every team's window keeps, by the windows' own accounting. */
  long retainedBytes() {
    return retained.get();
  }

  /** Where this replica starts reading a partition, and how many partitions each topic has. */
  void assigned(TopicPartition partition, long position, int partitionsOfTopic) {
    startPositions.putIfAbsent(partition, position);
    partitionCounts.putIfAbsent(partition.topic(), partitionsOfTopic);
  }

  /** Drops least recently used teams' windows while all of them keep more than the total bound. */
  void keepWithinTotal() {
    long bound = properties.windowBytesTotal().toBytes();
    while (retained.get() > bound) {
      Map.Entry<String, TeamWindow> eldest;
      synchronized (windows) {
        var entries = windows.entrySet().iterator();
        if (!entries.hasNext()) {
          return;
        }
        eldest = entries.next();
        entries.remove();
      }
      dropped(eldest.getKey(), eldest.getValue());
    }
  }

  /** A team's window is gone: its bytes leave the total, and its events are marked as dropped. */
  private void dropped(String teamId, TeamWindow window) {
    TeamWindow.Snapshot snapshot = window.snapshot();
    retained.addAndGet(-window.bytes());
    for (int topic = 0; topic < Topics.EVENT_TOPICS.size(); topic++) {
      TopicPartition partition = partitionOf(teamId, topic);
      if (partition != null) {
        droppedUpTo.merge(partition, snapshot.cursor().offset(topic), Math::max);
      }
    }
  }

  /** The partition of {@code topic} that holds the team's events; null while it is not known. */
  @Nullable TopicPartition partitionOf(String teamId, int topic) {
    String name = Topics.EVENT_TOPICS.get(topic);
    Integer partitions = partitionCounts.get(name);
    if (partitions == null) {
      return null;
    }
    byte[] key = teamId.getBytes(StandardCharsets.UTF_8);
    return new TopicPartition(name, Utils.toPositive(Utils.murmur2(key)) % partitions);
  }

  /**
   * The team's window; while this replica does not read every topic yet, an empty one that vouches
   * for nothing and is not kept.
   */
  TeamWindow window(String teamId) {
    TeamWindow known = windows.get(teamId);
    if (known != null) {
      return known;
    }
    long[] completeAfter = completeAfter(teamId);
    if (completeAfter == null) {
      long[] nothing = new long[Topics.EVENT_TOPICS.size()];
      Arrays.fill(nothing, Long.MAX_VALUE);
      return new TeamWindow(
          properties.windowPerTeam(),
          properties.windowBytesPerTeam().toBytes(),
          nothing,
          change -> {});
    }
    return windows.computeIfAbsent(
        teamId,
        id ->
            new TeamWindow(
                properties.windowPerTeam(),
                properties.windowBytesPerTeam().toBytes(),
                completeAfter,
                retained::addAndGet));
  }

  /**
   * Per topic, the offset on the team's partition after which this replica has read everything;
   * null while some topic is not assigned yet.
   */
  private long @Nullable [] completeAfter(String teamId) {
    long[] after = new long[Topics.EVENT_TOPICS.size()];
    for (int topic = 0; topic < after.length; topic++) {
      TopicPartition partition = partitionOf(teamId, topic);
      Long start = partition == null ? null : startPositions.get(partition);
      if (start == null) {
        return null;
      }
      after[topic] = Math.max(start - 1, droppedUpTo.getOrDefault(partition, -1L));
    }
    return after;
  }

  /** Whether the snapshot is of a window that vouches for what it holds (its topics are read). */
  static boolean vouches(TeamWindow.Snapshot snapshot) {
    for (long after : snapshot.completeAfter()) {
      if (after == Long.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }
}
