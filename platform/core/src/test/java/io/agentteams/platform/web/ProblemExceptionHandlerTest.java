package io.agentteams.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.netty.channel.AbortedException;

/** What the last-resort handler does with a broken connection, beside a real failure. */
@ExtendWith(OutputCaptureExtension.class)
class ProblemExceptionHandlerTest {

  private final ProblemExceptionHandler handler = new ProblemExceptionHandler();

  @Test
  void aBrokenConnectionIsAnsweredAsAnUnavailableDependencyNeverWithNothingAndNotLoggedAsAnError(
      CapturedOutput output) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.post("/api/v1/teams/t/messages"));

    handler
        .handle(exchange, new AbortedException("Connection has been closed"))
        .block(Duration.ofSeconds(5));

    // Never an empty 200: behind the gateway a service killed under a call breaks the connection
    // the same way a caller who hung up does.
    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
    assertThat(output.getAll()).doesNotContain("failed unexpectedly").doesNotContain("ERROR");
  }

  @Test
  void aServiceResettingTheGatewaysCallIsA503NotAnEmptyAnswer() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/teams/t/inbox"));

    handler
        .handle(exchange, new java.io.IOException("Connection reset by peer"))
        .block(Duration.ofSeconds(5));

    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(5)))
        .contains("\"unavailable\"");
  }

  @Test
  void anUnexpectedFailureIsStillA500LoggedAsAnError(CapturedOutput output) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.post("/api/v1/teams/t/messages"));

    handler.handle(exchange, new IllegalStateException("broken")).block(Duration.ofSeconds(5));

    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    assertThat(output.getAll()).contains("failed unexpectedly");
  }
}
