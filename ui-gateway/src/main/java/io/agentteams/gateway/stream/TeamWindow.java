package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The most recent events of one team, for replay to subscribers that reconnect. Knows how far back
 * it is complete, so a cursor older than that is answered with a reset rather than a gap.
 */
final class TeamWindow {

  private final int capacity;
  private final ArrayDeque<FeedEvent> events = new ArrayDeque<>();
  private final Set<String> eventIds = new HashSet<>();
  private final long[] completeAfter;
  private EventCursor cursor;
  private long bytes;

  /**
   * @param capacity events kept
   * @param completeAfter per topic, the offset after which this window has seen every event of the
   *     team (the partition's position when this replica started reading)
   */
  TeamWindow(int capacity, long[] completeAfter) {
    this.capacity = capacity;
    this.completeAfter = completeAfter.clone();
    // Cursors issued from here on start where this replica's view of the team is complete.
    long[] start = completeAfter.clone();
    for (int i = 0; i < start.length; i++) {
      start[i] = start[i] == Long.MAX_VALUE ? -1 : start[i];
    }
    this.cursor = new EventCursor(start);
  }

  /**
   * Records an event; a redelivered copy of one still in the window (same event id) only moves the
   * cursor and yields nothing, so subscribers see each event once.
   */
  synchronized Optional<FeedEvent> append(
      String eventId,
      String teamId,
      String ownerId,
      int topic,
      long offset,
      String type,
      String json,
      Set<String> members) {
    cursor = cursor.after(topic, offset);
    if (!eventIds.add(eventId)) {
      return Optional.empty();
    }
    FeedEvent event =
        new FeedEvent(eventId, teamId, ownerId, topic, offset, type, json, members, cursor);
    events.addLast(event);
    bytes += json.length();
    if (events.size() > capacity) {
      FeedEvent evicted = events.removeFirst();
      bytes -= evicted.json().length();
      eventIds.remove(evicted.eventId());
      completeAfter[evicted.topic()] = Math.max(completeAfter[evicted.topic()], evicted.offset());
    }
    return Optional.of(event);
  }

  /** The size of the retained events' JSON, in characters (about bytes: mostly ASCII). */
  synchronized long bytes() {
    return bytes;
  }

  /** The retained events and the cursor after the last of them, taken together. */
  synchronized Snapshot snapshot() {
    return new Snapshot(List.copyOf(events), cursor, completeAfter.clone());
  }

  /** A consistent view of a window. */
  record Snapshot(List<FeedEvent> events, EventCursor cursor, long[] completeAfter) {

    /** Whether every event after {@code resume} is still in the window. */
    boolean covers(EventCursor resume) {
      for (int topic = 0; topic < Topics.EVENT_TOPICS.size(); topic++) {
        if (resume.offset(topic) < completeAfter[topic]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Snapshot s
          && events.equals(s.events)
          && cursor.equals(s.cursor)
          && Arrays.equals(completeAfter, s.completeAfter);
    }

    @Override
    public int hashCode() {
      return events.hashCode() * 31 + cursor.hashCode();
    }
  }
}
