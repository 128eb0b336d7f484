package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import java.util.Set;

/**
 * One event of a team as the feed holds it.
 *
 * @param eventId the envelope's event id
 * @param teamId the team
 * @param ownerId the team's owner, from the envelope
 * @param topic the event topic's index in {@code Topics.EVENT_TOPICS}
 * @param offset the record's offset on the team's partition of that topic
 * @param type the event type
 * @param json the envelope as published
 * @param members the members the event is about (recipients, claimants, task owners, ...)
 * @param cursor the team's cursor just after this event
 */
public record FeedEvent(
    String eventId,
    String teamId,
    String ownerId,
    int topic,
    long offset,
    String type,
    String json,
    Set<String> members,
    EventCursor cursor) {

  public FeedEvent {
    members = Set.copyOf(members);
  }

  /** Whether the event came from the given topic. */
  public boolean from(String topicName) {
    return Topics.EVENT_TOPICS.indexOf(topicName) == topic;
  }

  /** Whether the event is about the member. */
  public boolean concerns(String member) {
    return members.contains(member);
  }
}
