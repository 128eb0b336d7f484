package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import java.util.Arrays;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a client is in a team's stream: for each event topic, the offset of the last event it
 * received on the team's partition ({@code -1} for none). Offsets are the broker's, so every
 * gateway replica understands a cursor any other replica issued. Written as the SSE event id, e.g.
 * {@code 41.-1.7.-1}.
 */
public record EventCursor(long[] offsets) {

  public EventCursor {
    if (offsets.length != Topics.EVENT_TOPICS.size()) {
      throw new IllegalArgumentException("a cursor has one offset per event topic");
    }
    offsets = offsets.clone();
  }

  /** A cursor before any event. */
  public static EventCursor start() {
    long[] offsets = new long[Topics.EVENT_TOPICS.size()];
    Arrays.fill(offsets, -1);
    return new EventCursor(offsets);
  }

  /** Reads a cursor from a {@code Last-Event-ID}; empty when absent or malformed. */
  public static Optional<EventCursor> parse(@Nullable String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String[] parts = value.trim().split("\\.");
    if (parts.length != Topics.EVENT_TOPICS.size()) {
      return Optional.empty();
    }
    long[] offsets = new long[parts.length];
    try {
      for (int i = 0; i < parts.length; i++) {
        offsets[i] = Long.parseLong(parts[i]);
        if (offsets[i] < -1) {
          return Optional.empty();
        }
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    return Optional.of(new EventCursor(offsets));
  }

  public long offset(int topic) {
    return offsets[topic];
  }

  /** This cursor moved past an event. */
  public EventCursor after(int topic, long offset) {
    long[] next = offsets.clone();
    next[topic] = Math.max(next[topic], offset);
    return new EventCursor(next);
  }

  /** Whether the event lies beyond this cursor. */
  public boolean precedes(int topic, long offset) {
    return offset > offsets[topic];
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < offsets.length; i++) {
      if (i > 0) {
        text.append('.');
      }
      text.append(offsets[i]);
    }
    return text.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EventCursor cursor && Arrays.equals(offsets, cursor.offsets);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(offsets);
  }
}
