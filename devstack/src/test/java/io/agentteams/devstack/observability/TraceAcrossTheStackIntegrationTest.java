package io.agentteams.devstack.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentteams.contracts.Topics;
import io.agentteams.devstack.ServiceStack;
import io.agentteams.devstack.ServiceStack.Service;
import io.agentteams.devstack.support.Api;
import io.agentteams.devstack.support.CapturedSpans;
import io.agentteams.devstack.support.SharedStack;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * One request through the running stack makes one trace: the gateway's server span, team-service's
 * server span under the gateway's call, the relay's publish of the event the change stored in the
 * outbox, and under that publish the handling by every consuming service and the gateway's fan-out
 * to its streams, with every parent/child link intact across Kafka.
 */
@RealInfrastructure
class TraceAcrossTheStackIntegrationTest {

  private static final AttributeKey<String> SERVICE = AttributeKey.stringKey("service.name");
  private static final AttributeKey<String> EVENT_TYPE =
      AttributeKey.stringKey("agentteams.event.type");
  private static final Set<String> CONSUMERS =
      Set.of("mailbox-service", "task-board-service", "scheduler-service");

  private static Api api;
  private static WebClient gateway;

  @BeforeAll
  static void startStack(TestInfrastructure shared) {
    ServiceStack stack = SharedStack.get();
    api = new Api(stack.url(Service.GATEWAY));
    gateway = WebClient.create(stack.url(Service.GATEWAY));
  }

  @Test
  void aTeamCreationIsOneTraceFromTheGatewayThroughTheRelayToEveryConsumer() {
    String token = api.ownerToken("trace-owner");
    for (String agent : List.of("trace-a", "trace-b")) {
      api.post("/api/v1/agents", token, Map.of("id", agent, "name", agent));
    }
    // The caller starts the trace, as an instrumented agent platform would.
    HexFormat hex = HexFormat.of();
    SecureRandom random = new SecureRandom();
    String traceId = hex.formatHex(random.generateSeed(16));
    String callerSpan = hex.formatHex(random.generateSeed(8));

    Map<?, ?> team =
        gateway
            .post()
            .uri("/api/v1/teams")
            .header("Authorization", "Bearer " + token)
            .header("traceparent", "00-" + traceId + "-" + callerSpan + "-01")
            .bodyValue(
                Map.of(
                    "name",
                    "Traced team",
                    "goal",
                    "Show one trace",
                    "members",
                    List.of(
                        Map.of("name", "lead", "agent_id", "trace-a", "lead", true),
                        Map.of("name", "helper", "agent_id", "trace-b"))))
            .retrieve()
            .bodyToMono(Map.class)
            .block(Duration.ofSeconds(30));
    assertThat(team.get("id")).isNotNull();

    // Every consumer handled TeamCreated and the gateway fanned it out, each in this trace.
    List<SpanData> trace =
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> CapturedSpans.ofTrace(traceId),
                spans ->
                    servicesOf(handlingsOf(spans, "TeamCreated")).containsAll(CONSUMERS)
                        && spans.stream().anyMatch(s -> isDelivery(s, "TeamCreated")));
    Map<String, SpanData> byId =
        trace.stream()
            .collect(Collectors.toMap(SpanData::getSpanId, Function.identity(), (a, b) -> a));

    SpanData gatewayServer =
        only(trace, s -> s.getKind() == SpanKind.SERVER && service(s).equals("ui-gateway"));
    assertThat(gatewayServer.getParentSpanId())
        .as("child of the caller's span")
        .isEqualTo(callerSpan);
    SpanData teamServer =
        only(trace, s -> s.getKind() == SpanKind.SERVER && service(s).equals("team-service"));
    assertThat(ancestors(teamServer, byId))
        .as("team-service's server span descends from the gateway's call")
        .anyMatch(s -> s.getKind() == SpanKind.CLIENT && service(s).equals("ui-gateway"))
        .contains(gatewayServer);
    SpanData publish =
        only(
            trace,
            s ->
                s.getKind() == SpanKind.PRODUCER
                    && "TeamCreated".equals(s.getAttributes().get(EVENT_TYPE)));
    assertThat(service(publish)).isEqualTo("team-service");
    assertThat(publish.getName()).isEqualTo("publish " + Topics.TEAM_EVENTS);
    assertThat(ancestors(publish, byId))
        .as("the relay publishes under the span that stored the event with the change")
        .contains(teamServer);
    for (SpanData handling : handlingsOf(trace, "TeamCreated")) {
      assertThat(handling.getParentSpanId())
          .as("%s handles the publish's record", service(handling))
          .isEqualTo(publish.getSpanId());
    }
    SpanData delivery = only(trace, s -> isDelivery(s, "TeamCreated"));
    assertThat(delivery.getParentSpanId()).isEqualTo(publish.getSpanId());

    // No link is broken: every span's parent is in the trace, but the caller's.
    assertThat(trace)
        .filteredOn(s -> !byId.containsKey(s.getParentSpanId()))
        .extracting(SpanData::getParentSpanId)
        .containsOnly(callerSpan);
  }

  private static List<SpanData> handlingsOf(List<SpanData> spans, String type) {
    return spans.stream()
        .filter(s -> s.getKind() == SpanKind.CONSUMER && s.getName().equals("handle " + type))
        .toList();
  }

  private static boolean isDelivery(SpanData span, String type) {
    return span.getKind() == SpanKind.CONSUMER
        && service(span).equals("ui-gateway")
        && type.equals(span.getAttributes().get(EVENT_TYPE));
  }

  private static Set<String> servicesOf(List<SpanData> spans) {
    return spans.stream()
        .map(TraceAcrossTheStackIntegrationTest::service)
        .collect(Collectors.toSet());
  }

  private static String service(SpanData span) {
    return String.valueOf(span.getResource().getAttribute(SERVICE));
  }

  private static SpanData only(List<SpanData> spans, java.util.function.Predicate<SpanData> which) {
    List<SpanData> found = spans.stream().filter(which).toList();
    assertThat(found).as("one such span among %s", describe(spans)).hasSize(1);
    return found.get(0);
  }

  private static List<SpanData> ancestors(SpanData span, Map<String, SpanData> byId) {
    return java.util.stream.Stream.iterate(
            Optional.ofNullable(byId.get(span.getParentSpanId())),
            Optional::isPresent,
            parent -> Optional.ofNullable(byId.get(parent.get().getParentSpanId())))
        .map(Optional::get)
        .toList();
  }

  private static List<String> describe(List<SpanData> spans) {
    return spans.stream()
        .map(s -> service(s) + " " + s.getKind() + " " + s.getName())
        .sorted()
        .toList();
  }
}
