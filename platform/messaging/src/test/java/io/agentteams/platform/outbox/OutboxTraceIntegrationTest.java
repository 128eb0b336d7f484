package io.agentteams.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.support.TestEvent;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The trace an event carries when one statement appends the events of several requests. */
@RealInfrastructure
class OutboxTraceIntegrationTest {

  private PlatformFixture fixture;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "outbox_trace");
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  @Test
  void eachEventAppendedTogetherKeepsItsOwnTraceAndOneWithoutTakesTheCallers() {
    TraceContext first = TraceContext.newTrace();
    TraceContext second = TraceContext.newTrace();
    TraceContext callers = TraceContext.newTrace();
    List<Outbox.Pending> pending =
        List.of(
            new Outbox.Pending("team-a", "owner", 1, new TestEvent("team-a", 1, "first"), first),
            new Outbox.Pending("team-b", "owner", 1, new TestEvent("team-b", 1, "second"), second),
            new Outbox.Pending("team-a", "owner", 2, new TestEvent("team-a", 2, "callers")));

    List<EventEnvelope> written =
        fixture
            .transactions
            .transactional(fixture.outbox.appendAll("topic", pending))
            .contextWrite(context -> context.put(TraceContext.CONTEXT_KEY, callers))
            .block();

    assertThat(written).extracting(EventEnvelope::trace).containsExactly(first, second, callers);
    List<String[]> rows =
        fixture
            .db
            .sql("SELECT payload, traceparent FROM platform.outbox ORDER BY id")
            .map(
                row ->
                    new String[] {
                      row.get("payload", String.class), row.get("traceparent", String.class)
                    })
            .all()
            .collectList()
            .block();
    assertThat(rows)
        .extracting(row -> row[1])
        .containsExactly(first.traceparent(), second.traceparent(), callers.traceparent());
    assertThat(rows)
        .extracting(row -> fixture.codec.read(row[0]).trace())
        .containsExactly(first, second, callers);
    assertThat(rows)
        .extracting(row -> fixture.codec.data(fixture.codec.read(row[0]), TestEvent.class).filler())
        .containsExactly("first", "second", "callers");
  }

  @Test
  void withoutATraceOfItsOwnOrTheCallersAnEventHasNone() {
    TraceContext own = TraceContext.newTrace();
    List<Outbox.Pending> pending =
        List.of(
            new Outbox.Pending("team-c", "owner", 1, new TestEvent("team-c", 1, "none")),
            new Outbox.Pending("team-c", "owner", 2, new TestEvent("team-c", 2, "own"), own));

    List<EventEnvelope> written =
        fixture.transactions.transactional(fixture.outbox.appendAll("topic", pending)).block();

    assertThat(written).extracting(EventEnvelope::trace).containsExactly(null, own);
    assertThat(
            fixture
                .db
                .sql("SELECT traceparent FROM platform.outbox ORDER BY id")
                .map(row -> String.valueOf(row.get("traceparent", String.class)))
                .all()
                .collectList()
                .block())
        .isEqualTo(Arrays.asList("null", own.traceparent()));
  }
}
