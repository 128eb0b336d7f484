package io.agentteams.platform.event;

import io.agentteams.contracts.EventPayload;
import java.time.Clock;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes envelopes and payloads as JSON with snake_case names. The wire format is the
 * contract between services, so it uses its own mapper rather than whatever an application
 * configured for HTTP.
 */
public final class EventCodec {

  private final JsonMapper mapper;
  private final Clock clock;
  private final String producer;

  public EventCodec(String producer, Clock clock) {
    this.producer = producer;
    this.clock = clock;
    this.mapper =
        JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
  }

  /** The name of the producing service stamped on every envelope. */
  public String producer() {
    return producer;
  }

  /** A new envelope for the payload, stamped with a fresh id, this producer and the clock. */
  public EventEnvelope envelope(
      EventPayload payload,
      String teamId,
      String ownerId,
      long sequence,
      @Nullable TraceContext trace) {
    return new EventEnvelope(
        UUID.randomUUID(),
        payload.eventType(),
        payload.schemaVersion(),
        teamId,
        ownerId,
        clock.instant(),
        producer,
        sequence,
        trace,
        mapper.valueToTree(payload));
  }

  /** The envelope as JSON text. */
  public String write(EventEnvelope envelope) {
    return mapper.writeValueAsString(envelope);
  }

  /** Reads an envelope, or fails with {@link MalformedEventException}. */
  public EventEnvelope read(@Nullable String json) {
    if (json == null) {
      throw new MalformedEventException("event has no value");
    }
    try {
      EventEnvelope envelope = mapper.readValue(json, EventEnvelope.class);
      if (envelope == null) {
        throw new MalformedEventException("event value is JSON null");
      }
      return envelope;
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      throw new MalformedEventException("not an event envelope: " + e.getMessage(), e);
    }
  }

  /** The envelope's data as the given payload type. */
  public <T> T data(EventEnvelope envelope, Class<T> type) {
    try {
      return mapper.treeToValue(envelope.data(), type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new MalformedEventException(
          envelope.type() + " " + envelope.eventId() + " has unreadable data: " + e.getMessage(),
          e);
    }
  }

  /** Any value as a JSON tree, with the wire format's naming. */
  public JsonNode tree(Object value) {
    return mapper.valueToTree(value);
  }

  /** The mapper behind the wire format. */
  public JsonMapper mapper() {
    return mapper;
  }
}
