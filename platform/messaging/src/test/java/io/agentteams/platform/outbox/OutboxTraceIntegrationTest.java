package io.agentteams.platform.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.platform.consumer.ConsumerProperties;
import io.agentteams.platform.consumer.EventHandler;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.event.TraceContext;
import io.agentteams.platform.support.PlatformFixture;
import io.agentteams.platform.support.TestEvent;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * An event carries the trace of the span that wrote it; the relay publishes it in a child span
 * whose context travels in the record's headers; the consumer handles it in a child of the publish.
 */
@RealInfrastructure
class OutboxTraceIntegrationTest {

  private PlatformFixture fixture;

  @BeforeEach
  void setUp(TestInfrastructure infrastructure) {
    fixture = new PlatformFixture(infrastructure, "outbox_trace", true);
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  @Test
  void eachEventAppendedTogetherKeepsItsOwnTraceAndOneWithoutTakesTheCallers() {
    TraceContext first = foreign("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    TraceContext second = foreign("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    List<Outbox.Pending> pending =
        List.of(
            new Outbox.Pending("team-a", "owner", 1, new TestEvent("team-a", 1, "first"), first),
            new Outbox.Pending("team-b", "owner", 1, new TestEvent("team-b", 1, "second"), second),
            new Outbox.Pending("team-a", "owner", 2, new TestEvent("team-a", 2, "callers")));
    Observation request = Observation.start("request", fixture.traces.observations());

    List<EventEnvelope> written =
        fixture
            .transactions
            .transactional(fixture.outbox.appendAll("topic", pending))
            .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, request))
            .block();
    request.stop();

    TraceContext callers = traceOf(request);
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
    TraceContext own = foreign("0af7651916cd43dd8448eb211c80319c", "00f067aa0ba902b7");
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

  @Test
  void eachEventOfAChangeWrittenInOneStatementKeepsItsOwnTraceAndOneWithoutTakesTheCallers() {
    fixture
        .db
        .sql("INSERT INTO key_sequence (key, value) VALUES ('r1', 0), ('r2', 0), ('r3', 0)")
        .then()
        .block();
    TraceContext first = foreign("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    TraceContext third = foreign("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    List<Outbox.RowEvent> events =
        List.of(
            new Outbox.RowEvent("r1", 1, new TestEvent("team-r", 1, "first"), first),
            new Outbox.RowEvent("r2", 1, new TestEvent("team-r", 2, "callers")),
            new Outbox.RowEvent("r3", 1, new TestEvent("team-r", 3, "third"), third));
    Observation request = Observation.start("request", fixture.traces.observations());

    fixture
        .outbox
        .appendWithChange(
            "UPDATE key_sequence SET value = 1 WHERE key IN ('r1', 'r2', 'r3')"
                + " RETURNING key AS outbox_match",
            spec -> spec,
            row -> row.get("outbox_match", String.class),
            "topic",
            "team-r",
            "owner",
            events)
        .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, request))
        .blockLast();
    request.stop();

    TraceContext callers = traceOf(request);
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
        .containsExactly(first.traceparent(), callers.traceparent(), third.traceparent());
    assertThat(rows)
        .extracting(row -> fixture.codec.read(row[0]).trace())
        .containsExactly(first, callers, third);
  }

  @Test
  void theRelaysPublishIsAChildOfTheChangeAndTheHandlerAChildOfThePublishAcrossKafka() {
    String topic = PlatformFixture.topic("traced");
    fixture.infrastructure.createTopics(1, List.of(topic));
    List<TraceContext> seenByHandler = new CopyOnWriteArrayList<>();
    EventHandler handler =
        event ->
            Mono.deferContextual(
                context -> {
                  // Where the handler writes an event of its own, it carries the handler's trace.
                  seenByHandler.add(fixture.outbox.traceOf(context));
                  return Mono.empty();
                });
    fixture
        .listeners(
            new ConsumerProperties(
                2,
                Duration.ofMillis(50),
                Duration.ofMillis(200),
                Duration.ofSeconds(30),
                Duration.ofDays(14),
                200),
            List.of(new EventSubscription("traced", List.of(topic), 1, handler)))
        .start();
    Observation change = Observation.start("change", fixture.traces.observations());

    fixture
        .transactions
        .transactional(
            fixture.outbox.append(topic, "team-t", "owner", 1, new TestEvent("team-t", 1, "x")))
        .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, change))
        .block();
    change.stop();
    fixture.relay(OutboxProperties.defaults(), RelayCheckpoint.NONE).drain().block();
    List<ConsumerRecord<String, String>> records =
        PlatformFixture.readUntil(
            fixture.rawConsumer(List.of(topic)),
            new ArrayList<>(),
            r -> !r.isEmpty(),
            Duration.ofSeconds(60));
    await().atMost(Duration.ofSeconds(60)).until(() -> !seenByHandler.isEmpty());

    String traceId = traceOf(change).traceId();
    Map<String, SpanData> spans =
        fixture.traces.finishedSpans().stream()
            .filter(span -> span.getTraceId().equals(traceId))
            .collect(Collectors.toMap(SpanData::getName, Function.identity(), (a, b) -> a));
    SpanData changeSpan = spans.get("change");
    SpanData publish = spans.get("publish " + topic);
    SpanData handle = spans.get("handle " + TestEvent.TYPE);
    assertThat(publish).as("publish span in %s", spans.keySet()).isNotNull();
    assertThat(handle).as("handle span in %s", spans.keySet()).isNotNull();
    assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(publish.getParentSpanId()).isEqualTo(changeSpan.getSpanId());
    assertThat(handle.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(handle.getParentSpanId()).isEqualTo(publish.getSpanId());
    // The record carries the publish's context; the handler's work runs in the handler's span.
    String header =
        new String(
            records.get(records.size() - 1).headers().lastHeader("traceparent").value(),
            StandardCharsets.UTF_8);
    assertThat(header).isEqualTo("00-" + traceId + "-" + publish.getSpanId() + "-01");
    assertThat(seenByHandler.get(0).spanId()).isEqualTo(handle.getSpanId());
  }

  private static TraceContext traceOf(Observation observation) {
    TracingObservationHandler.TracingContext tracing =
        observation.getContext().getRequired(TracingObservationHandler.TracingContext.class);
    var span = tracing.getSpan();
    return foreign(span.context().traceId(), span.context().spanId());
  }

  private static TraceContext foreign(String traceId, String spanId) {
    return new TraceContext("00-" + traceId + "-" + spanId + "-01", null);
  }
}
