package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.MalformedEventException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A resumed stream's events from before its team's window: read back from the broker, merged in
 * time order and made feed events, each with the cursor just after it.
 */
final class MissedEvents {

  private final EventCodec codec;
  private final EventReplay replay;
  private final TeamWindows windows;

  MissedEvents(EventCodec codec, EventReplay replay, TeamWindows windows) {
    this.codec = codec;
    this.replay = replay;
    this.windows = windows;
  }

  /**
   * The team's events after {@code resume} and before the window's start, read back from the broker
   * in time order (each topic's in offset order), each with the cursor just after it; empty when
   * they cannot all be had.
   */
  Optional<List<FeedEvent>> beforeWindow(
      String teamId, EventCursor resume, TeamWindow.Snapshot snapshot) {
    List<EventReplay.Range> ranges = new ArrayList<>();
    for (int topic = 0; topic < Topics.EVENT_TOPICS.size(); topic++) {
      long completeAfter = snapshot.completeAfter()[topic];
      TopicPartition partition = windows.partitionOf(teamId, topic);
      if (completeAfter == Long.MAX_VALUE || partition == null) {
        return Optional.empty();
      }
      if (resume.offset(topic) < completeAfter) {
        ranges.add(
            new EventReplay.Range(topic, partition, resume.offset(topic) + 1, completeAfter));
      }
    }
    return replay
        .missed(teamId, ranges)
        .map(MissedEvents::inTimeOrder)
        .map(records -> feedEvents(teamId, resume, records));
  }

  /** Merges the topics' records by timestamp, keeping each topic's in offset order. */
  private static List<EventReplay.Missed> inTimeOrder(List<EventReplay.Missed> records) {
    Map<Integer, ArrayDeque<EventReplay.Missed>> byTopic = new TreeMap<>();
    records.stream()
        .sorted(
            Comparator.comparingInt(EventReplay.Missed::topic)
                .thenComparingLong(EventReplay.Missed::offset))
        .forEach(r -> byTopic.computeIfAbsent(r.topic(), t -> new ArrayDeque<>()).add(r));
    List<EventReplay.Missed> merged = new ArrayList<>(records.size());
    while (true) {
      ArrayDeque<EventReplay.Missed> next = null;
      for (ArrayDeque<EventReplay.Missed> queue : byTopic.values()) {
        if (!queue.isEmpty()
            && (next == null || queue.peekFirst().timestamp() < next.peekFirst().timestamp())) {
          next = queue;
        }
      }
      if (next == null) {
        return merged;
      }
      merged.add(next.removeFirst());
    }
  }

  private List<FeedEvent> feedEvents(
      String teamId, EventCursor resume, List<EventReplay.Missed> records) {
    List<FeedEvent> events = new ArrayList<>(records.size());
    Set<String> seen = new HashSet<>();
    EventCursor cursor = resume;
    for (EventReplay.Missed record : records) {
      cursor = cursor.after(record.topic(), record.offset());
      EventEnvelope envelope;
      try {
        envelope = codec.read(record.json());
      } catch (MalformedEventException e) {
        continue;
      }
      if (!envelope.teamId().equals(teamId) || !seen.add(envelope.eventId().toString())) {
        continue;
      }
      events.add(
          new FeedEvent(
              envelope.eventId().toString(),
              envelope.teamId(),
              envelope.ownerId(),
              record.topic(),
              record.offset(),
              envelope.type(),
              record.json(),
              EventAudience.of(envelope.data()),
              cursor));
    }
    return events;
  }
}
