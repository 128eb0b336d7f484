package io.agentteams.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class StreamDrainTest {

  @Test
  void aStreamThatNeverEndsCompletesWhenShutdownBegins() {
    StreamDrain drain = new StreamDrain();
    drain.start();
    Sinks.Many<String> events = Sinks.many().multicast().onBackpressureBuffer();

    StepVerifier.create(drain.endOnShutdown(Flux.merge(events.asFlux(), Flux.never())))
        .then(() -> events.tryEmitNext("before"))
        .expectNext("before")
        .then(drain::stop)
        .expectComplete()
        .verify(Duration.ofSeconds(10));
    assertThat(drain.isRunning()).isFalse();
  }

  @Test
  void aStreamOpenedAfterShutdownBeganEndsAtOnce() {
    StreamDrain drain = new StreamDrain();
    drain.start();
    drain.stop();

    StepVerifier.create(drain.endOnShutdown(Flux.interval(Duration.ofMillis(1))))
        .expectComplete()
        .verify(Duration.ofSeconds(10));
  }

  @Test
  void aContextStartedAgainAfterAStopServesStreamsAgainAndDrainsThemAtTheNextStop() {
    // The test framework pauses a cached context (stop) and resumes it (start) between classes.
    StreamDrain drain = new StreamDrain();
    drain.start();
    drain.stop();
    drain.start();
    Sinks.Many<String> events = Sinks.many().multicast().onBackpressureBuffer();

    StepVerifier.create(drain.endOnShutdown(Flux.merge(events.asFlux(), Flux.never())))
        .then(() -> events.tryEmitNext("after the restart"))
        .expectNext("after the restart")
        .then(drain::stop)
        .expectComplete()
        .verify(Duration.ofSeconds(10));
  }

  @Test
  void drainsBeforeTheWebServerWaitsForRequests() {
    // WebServerGracefulShutdownLifecycle's phase: lower phases stop later.
    assertThat(new StreamDrain().getPhase()).isGreaterThan(Integer.MAX_VALUE - 1024);
  }
}
