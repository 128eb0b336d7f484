package io.agentteams.platform.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.platform.test.RealInfrastructure;
import io.agentteams.platform.test.TestInfrastructure;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * With the format containers and the chart set ({@code logging.structured.format.console=ecs}),
 * every line is one JSON object; a line logged while handling a request carries the request's trace
 * and span ids, also after the work moved to another thread, where it is logged from Reactor's
 * {@code handle} (or {@code tap}), and so does the line of an unexpected failure.
 */
@RealInfrastructure
@ExtendWith(OutputCaptureExtension.class)
class StructuredLogsIntegrationTest {

  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String FAILING_TRACE_ID = "5cf92f3577b34da6a3ce929d0e0e4737";

  @SpringBootApplication
  static class LoggingService {}

  @RestController
  static class Probe {

    private static final Logger log = LoggerFactory.getLogger(Probe.class);

    @GetMapping("/probe")
    Mono<String> probe() {
      // A hop to another thread, as reactive work does all the time; handle restores the trace.
      return Mono.delay(Duration.ofMillis(5))
          .<Long>handle(
              (tick, sink) -> {
                log.info("probe handled");
                sink.next(tick);
              })
          .thenReturn("ok");
    }

    @GetMapping("/failing-probe")
    Mono<String> failingProbe() {
      return Mono.delay(Duration.ofMillis(5))
          .flatMap(tick -> Mono.error(new IllegalStateException("the probe broke")));
    }
  }

  @Test
  void containerLogsAreJsonLinesCarryingTheRequestsTraceAndSpan(
      TestInfrastructure infrastructure, CapturedOutput output) {
    try (ConfigurableApplicationContext service =
        new SpringApplicationBuilder(LoggingService.class, Probe.class)
            .web(WebApplicationType.REACTIVE)
            .properties(
                "spring.application.name=logging-service",
                "server.port=0",
                "server.address=127.0.0.1",
                "spring.main.banner-mode=off",
                "spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
                "logging.structured.format.console=ecs",
                // TEST ONLY: a fresh gateway key's public half, as every service must be given.
                "agentteams.identity.internal-verification-keys="
                    + TokenKeys.publicSet(
                        TokenKeys.internalSigning(TokenKeys.generateInternalSigning(), "test")))
            .run()) {
      int port = ((WebServerApplicationContext) service).getWebServer().getPort();
      WebClient.create("http://127.0.0.1:" + port)
          .get()
          .uri("/probe")
          .header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
          .retrieve()
          .bodyToMono(String.class)
          .block(Duration.ofSeconds(30));
      WebClient.create("http://127.0.0.1:" + port)
          .get()
          .uri("/failing-probe")
          .header("traceparent", "00-" + FAILING_TRACE_ID + "-00f067aa0ba902b7-01")
          .exchangeToMono(response -> response.releaseBody())
          .block(Duration.ofSeconds(30));
    }

    JsonMapper json = JsonMapper.builder().build();
    List<String> lines =
        output.getOut().lines().filter(line -> line.contains("logging-service")).toList();
    assertThat(lines).isNotEmpty().allMatch(line -> line.startsWith("{") && line.endsWith("}"));
    JsonNode probe =
        lines.stream()
            .map(json::readTree)
            .filter(line -> line.path("message").asString().equals("probe handled"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no probe line in " + lines));
    assertThat(probe.path("traceId").asString()).isEqualTo(TRACE_ID);
    assertThat(probe.path("spanId").asString())
        .matches("[0-9a-f]{16}")
        .isNotEqualTo("00f067aa0ba902b7");
    assertThat(probe.path("service").path("name").asString()).isEqualTo("logging-service");
    JsonNode failure =
        lines.stream()
            .map(json::readTree)
            .filter(line -> line.path("message").asString().contains("failed unexpectedly"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no failure line in " + lines));
    assertThat(failure.path("traceId").asString())
        .as("the unexpected failure's line names the request's trace")
        .isEqualTo(FAILING_TRACE_ID);
  }
}
