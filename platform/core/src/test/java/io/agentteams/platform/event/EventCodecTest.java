package io.agentteams.platform.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.contracts.team.RosterMember;
import io.agentteams.contracts.team.TeamCreated;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventCodecTest {

  private final EventCodec codec =
      new EventCodec(
          "team-service", Clock.fixed(Instant.parse("2026-11-30T10:15:30Z"), ZoneOffset.UTC));

  private final TeamCreated created =
      new TeamCreated(
          "7b0c3c52-2f1e-4d8a-9d3e-0d9a0c5b8e11",
          "alice",
          "Research",
          "Find out — 调查 🚀",
          "provisioning",
          List.of(new RosterMember("lead-writer", "agent-1", true, "conv-1")),
          1);

  private static final TraceContext TRACE =
      new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=x");

  @Test
  void writesTheEnvelopeWithSnakeCaseNamesAndReadsItBackUnchanged() {
    TraceContext trace = TRACE;
    EventEnvelope envelope = codec.envelope(created, created.teamId(), "alice", 1, trace);

    String json = codec.write(envelope);

    assertThat(json)
        .contains("\"event_id\"", "\"schema_version\":1", "\"team_id\"", "\"owner_id\":\"alice\"")
        .contains("\"occurred_at\":\"2026-11-30T10:15:30Z\"", "\"producer\":\"team-service\"")
        .contains(
            "\"traceparent\":\"" + trace.traceparent() + "\"", "\"conversation_id\":\"conv-1\"");
    EventEnvelope read = codec.read(json);
    assertThat(read).usingRecursiveComparison().ignoringFields("data").isEqualTo(envelope);
    assertThat(codec.write(read)).isEqualTo(json);
    assertThat(codec.data(read, TeamCreated.class)).isEqualTo(created);
  }

  @Test
  void ignoresFieldsItDoesNotKnowSoProducersCanAddThem() {
    String json =
        codec
            .write(codec.envelope(created, created.teamId(), "alice", 1, null))
            .replace("\"producer\"", "\"added_later\":42,\"producer\"");
    assertThat(codec.read(json).producer()).isEqualTo("team-service");
  }

  @Test
  void rejectsBytesThatAreNotAnEnvelope() {
    assertThatThrownBy(() -> codec.read("not json")).isInstanceOf(MalformedEventException.class);
    assertThatThrownBy(() -> codec.read("{\"type\":\"X\"}"))
        .isInstanceOf(MalformedEventException.class);
    assertThatThrownBy(() -> codec.read(null)).isInstanceOf(MalformedEventException.class);
  }

  @Test
  void tracesAreWellFormedW3cTraceparents() {
    assertThat(TraceContext.isValid(TRACE.traceparent())).isTrue();
    assertThat(TRACE.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(TRACE.spanId()).isEqualTo("00f067aa0ba902b7");
    assertThatThrownBy(() -> new TraceContext("00-zz-11-01", null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
