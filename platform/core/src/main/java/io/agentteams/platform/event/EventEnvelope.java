package io.agentteams.platform.event;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One event as it travels between services: who produced what, about which team, when, in which
 * order, in which trace, and the data itself.
 *
 * @param eventId unique per event; consumers deduplicate on it
 * @param type the payload's type name, e.g. {@code TeamCreated}
 * @param schemaVersion the payload's schema version
 * @param teamId the team the event concerns; also the Kafka key, so a team's events stay ordered
 * @param ownerId the owner of that team
 * @param occurredAt when the change committed (producer's clock)
 * @param producer the service that produced it
 * @param sequence the aggregate's revision or sequence after this change, so consumers can ignore
 *     stale events
 * @param trace the trace the change belongs to, if known
 * @param data the payload
 */
public record EventEnvelope(
    UUID eventId,
    String type,
    int schemaVersion,
    String teamId,
    String ownerId,
    Instant occurredAt,
    String producer,
    long sequence,
    @Nullable TraceContext trace,
    JsonNode data) {

  public EventEnvelope {
    Objects.requireNonNull(eventId, "event_id");
    requireText(type, "type");
    requireText(teamId, "team_id");
    requireText(ownerId, "owner_id");
    Objects.requireNonNull(occurredAt, "occurred_at");
    requireText(producer, "producer");
    Objects.requireNonNull(data, "data");
    if (schemaVersion < 1) {
      throw new IllegalArgumentException("schema_version must be at least 1");
    }
  }

  /** The same event continuing from another point of its trace, e.g. the span that published it. */
  public EventEnvelope withTrace(@Nullable TraceContext continueFrom) {
    return new EventEnvelope(
        eventId,
        type,
        schemaVersion,
        teamId,
        ownerId,
        occurredAt,
        producer,
        sequence,
        continueFrom,
        data);
  }

  private static void requireText(@Nullable String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
  }
}
