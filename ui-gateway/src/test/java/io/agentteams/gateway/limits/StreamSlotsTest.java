package io.agentteams.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A principal holds at most its streams at once (429 too-many-streams beyond), other principals are
 * not held back, and a closed stream gives its slot back.
 */
class StreamSlotsTest {

  private static final String STREAM = "http://127.0.0.1/api/v1/agents/scout/jobs/stream";

  private final StreamSlots slots =
      new StreamSlots(
          new EdgeLimitProperties(50, 100, 5, 20, 1_048_576, 100_000, 100_000, 2),
          new SimpleMeterRegistry());

  @Test
  void aPrincipalHoldsAtMostItsStreamsAndGetsASlotBackWhenOneCloses() {
    Caller worker = new Caller.Worker("olive", "scout");
    Disposable first = slots.hold(exchange(), worker, Mono.never()).subscribe();
    Disposable second = slots.hold(exchange(), worker, Mono.never()).subscribe();
    assertThat(slots.held(worker)).isEqualTo(2);

    MockServerWebExchange third = exchange();
    slots.hold(third, worker, Mono.never()).block(Duration.ofSeconds(5));
    assertThat(third.getResponse().getStatusCode().value()).isEqualTo(429);
    assertThat(third.getResponse().getBodyAsString().block()).contains("too-many-streams");
    assertThat(slots.held(worker)).isEqualTo(2);

    // Another principal, even of the same owner, has slots of its own.
    Caller member = new Caller.Member("olive", UUID.randomUUID(), "lead", null);
    Disposable other = slots.hold(exchange(), member, Mono.never()).subscribe();
    assertThat(slots.held(member)).isEqualTo(1);

    first.dispose();
    assertThat(slots.held(worker)).isEqualTo(1);
    MockServerWebExchange again = exchange();
    Disposable fourth = slots.hold(again, worker, Mono.never()).subscribe();
    assertThat(again.getResponse().getStatusCode()).isNull();
    assertThat(slots.held(worker)).isEqualTo(2);

    second.dispose();
    fourth.dispose();
    other.dispose();
    assertThat(slots.held(worker)).isZero();
    assertThat(slots.held(member)).isZero();
  }

  @Test
  void onlyEventStreamsAreCounted() {
    assertThat(StreamSlots.isStream(exchange())).isTrue();
    assertThat(
            StreamSlots.isStream(
                MockServerWebExchange.from(
                    MockServerHttpRequest.get(
                        "http://127.0.0.1/api/v1/teams/"
                            + UUID.randomUUID()
                            + "/members/a/events"))))
        .isTrue();
    assertThat(
            StreamSlots.isStream(
                MockServerWebExchange.from(
                    MockServerHttpRequest.get("http://127.0.0.1/api/v1/teams/x/inbox"))))
        .isFalse();
  }

  private static MockServerWebExchange exchange() {
    return MockServerWebExchange.from(MockServerHttpRequest.get(STREAM));
  }
}
