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

/** What the last-resort handler does with a caller that hung up, beside a real failure. */
@ExtendWith(OutputCaptureExtension.class)
class ProblemExceptionHandlerTest {

  private final ProblemExceptionHandler handler = new ProblemExceptionHandler();

  @Test
  void aClientThatHungUpIsNoFailureItIsAnsweredWithNothingAndNotLoggedAsAnError(
      CapturedOutput output) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(MockServerHttpRequest.post("/api/v1/teams/t/messages"));

    handler
        .handle(exchange, new AbortedException("Connection has been closed"))
        .block(Duration.ofSeconds(5));

    assertThat(exchange.getResponse().getStatusCode()).isNull();
    assertThat(output.getAll()).doesNotContain("failed unexpectedly").doesNotContain("ERROR");
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
