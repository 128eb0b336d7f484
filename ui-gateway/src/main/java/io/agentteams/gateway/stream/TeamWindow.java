package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The most recent events of one team, for replay to subscribers that reconnect, bounded in count
 * and in bytes. Knows how far back it is complete, so a cursor older than that is answered with a
 * reset rather than a gap.
 */
final class TeamWindow {

  private final int capacity;
  private final long maxBytes;
  private final LongConsumer sizeChanged;
  private final ArrayDeque<FeedEvent> events = new ArrayDeque<>();
  private final Set<String> eventIds = new HashSet<>();
  private final long[] completeAfter;
  private EventCursor cursor;
  private long bytes;

  /**
   * @param capacity events kept
   * @param maxBytes bytes of events' JSON kept (UTF-8)
   * @param completeAfter per topic, the offset after which this window has seen every event of the
   *     team (the partition's position when this replica started reading)
   * @param sizeChanged told of every change of the bytes kept, for the feed's total
   */
  TeamWindow(int capacity, long maxBytes, long[] completeAfter, LongConsumer sizeChanged) {
    this.capacity = capacity;
    this.maxBytes = maxBytes;
    this.sizeChanged = sizeChanged;
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
    long change = utf8Length(json);
    bytes += change;
    // The oldest go first; an event larger than the bound on its own is handed on, not kept.
    while (!events.isEmpty() && (events.size() > capacity || bytes > maxBytes)) {
      FeedEvent evicted = events.removeFirst();
      long size = utf8Length(evicted.json());
      bytes -= size;
      change -= size;
      eventIds.remove(evicted.eventId());
      completeAfter[evicted.topic()] = Math.max(completeAfter[evicted.topic()], evicted.offset());
    }
    sizeChanged.accept(change);
    return Optional.of(event);
  }

  /** The length of the text in UTF-8, without encoding it. */
  static long utf8Length(String text) {
    long length = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
        length += 4;
        i++;
      } else {
        length += 3;
      }
    }
    return length;
  }

  /** The size of the retained events' JSON in bytes (UTF-8). */
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
