package io.agentteams.scheduler.a2a.application;

import io.agentteams.scheduler.a2a.domain.A2aFailure;
import io.agentteams.scheduler.runtime.application.WireMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The A2A runtime's calls to agents, counted by method and outcome ({@code
 * agentteams.scheduler.a2a.calls}) and timed by method ({@code
 * agentteams.scheduler.a2a.call.latency}; a stream to its first event).
 */
@Component
public class A2aCallMeters {

  private static final List<String> METHODS =
      List.of(
          "AgentCard",
          "SendMessage",
          "SendStreamingMessage",
          "SubscribeToTask",
          "GetTask",
          "ListTasks",
          "CancelTask");

  /** The call, counted and timed under its method. */
  public <T> Mono<T> timed(String method, Mono<T> call) {
    return Mono.defer(
        () -> {
          Timer.Sample sample = Timer.start(meters);
          return call.doOnSuccess(
                  done -> {
                    sample.stop(latency(method));
                    calls(method, "ok").increment();
                  })
              .doOnError(
                  e -> {
                    sample.stop(latency(method));
                    calls(method, outcome(e)).increment();
                  });
        });
  }

  /** The stream, counted under its method and timed to its first event. */
  public Flux<JsonNode> timedStream(String method, Flux<JsonNode> stream) {
    return Flux.defer(
        () -> {
          Timer.Sample sample = Timer.start(meters);
          AtomicBoolean first = new AtomicBoolean(true);
          return stream
              .doOnNext(
                  event -> {
                    // A stream's latency is the time to its first event.
                    if (first.compareAndSet(true, false)) {
                      sample.stop(latency(method));
                    }
                  })
              .doOnComplete(() -> calls(method, "ok").increment())
              .doOnError(e -> calls(method, outcome(e)).increment());
        });
  }

  private static String outcome(Throwable e) {
    return e instanceof A2aFailure failure ? failure.kind().word() : "error";
  }

  private Counter calls(String method, String outcome) {
    return wire.count("method", method, "outcome", outcome);
  }

  private Timer latency(String method) {
    return wire.latency("method", method);
  }

  private final MeterRegistry meters;
  private final WireMeters wire;

  public A2aCallMeters(MeterRegistry meters) {
    this.meters = meters;
    this.wire =
        new WireMeters(
            meters,
            "agentteams.scheduler.a2a.calls",
            "Calls to A2A agents, by method and how they ended",
            "agentteams.scheduler.a2a.call.latency",
            "How long an A2A call took until its answer (a stream: its first event)");
    // Every series exists from the start, so dashboards and alerts read zeros, not gaps.
    for (String method : METHODS) {
      calls(method, "ok");
      latency(method);
    }
  }
}
