package io.agentteams.gateway.stream;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Finds the events of a team that a resuming subscriber missed and the team's window does not hold
 * (it began after them, or let them go), from the broker, which keeps them longer.
 */
@FunctionalInterface
public interface EventReplay {

  /** Finds nothing: every such resume gets a reset. */
  EventReplay NONE = (teamId, ranges) -> Optional.empty();

  /**
   * The team's events in the ranges, each range's in offset order.
   *
   * @return the events, or empty when the broker no longer holds a range whole, or reading them
   *     would pass the replay's bounds
   */
  Optional<List<Missed>> missed(String teamId, List<Range> ranges);

  /**
   * Offsets of one event topic's partition of the team to read.
   *
   * @param topic the topic's index in {@code Topics.EVENT_TOPICS}
   * @param partition the team's partition of it
   * @param from the first offset
   * @param to the last offset (inclusive)
   */
  record Range(int topic, TopicPartition partition, long from, long to) {}

  /**
   * A record of the team read back from the broker.
   *
   * @param topic the topic's index in {@code Topics.EVENT_TOPICS}
   * @param offset its offset
   * @param timestamp its timestamp (milliseconds), to merge the topics in time order
   * @param json its value
   */
  record Missed(int topic, long offset, long timestamp, String json) {}
}
