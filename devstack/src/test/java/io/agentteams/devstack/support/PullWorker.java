package io.agentteams.devstack.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * An agent worker of the {@code pull} runtime, as an agent platform would run one: it holds its
 * agent's job stream through the gateway, reports {@code started}, lets a handler act with the
 * job's member token, and reports {@code completed} with the handler's answer.
 */
public final class PullWorker implements AutoCloseable {

  private final Api api;
  private final String workerToken;
  private final Disposable subscription;
  private final List<JsonNode> offers = new CopyOnWriteArrayList<>();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();

  /**
   * @param handler given the api and the offer, acts as the member and returns the final answer
   */
  public PullWorker(
      Api api, String workerToken, String agentId, BiFunction<Api, JsonNode, String> handler) {
    this.api = api;
    this.workerToken = workerToken;
    this.subscription =
        api.stream("/api/v1/agents/" + agentId + "/jobs/stream", workerToken)
            .filter(event -> "job".equals(event.event()))
            .map(ServerSentEvent::data)
            .map(api::json)
            .publishOn(Schedulers.boundedElastic())
            .subscribe(
                offer -> {
                  offers.add(offer);
                  try {
                    run(offer, handler);
                  } catch (RuntimeException | AssertionError e) {
                    failures.add(e);
                  }
                },
                failures::add);
  }

  private void run(JsonNode offer, BiFunction<Api, JsonNode, String> handler) {
    String jobId = offer.get("job_id").asString();
    String lease = offer.get("lease_token").asString();
    report(jobId, Map.of("type", "started", "lease_token", lease));
    String answer = handler.apply(api, offer);
    report(jobId, Map.of("type", "completed", "lease_token", lease, "answer", answer));
  }

  private void report(String jobId, Map<String, Object> event) {
    api.post("/api/v1/jobs/" + jobId + "/events", workerToken, event).ok();
  }

  /** Every offer received so far. */
  public List<JsonNode> offers() {
    return List.copyOf(offers);
  }

  /** What went wrong in a handler or the stream; empty when all went well. */
  public List<Throwable> failures() {
    return List.copyOf(failures);
  }

  @Override
  public void close() {
    subscription.dispose();
  }
}
