package io.agentteams.devstack.console;

import static org.awaitility.Awaitility.await;

import io.agentteams.devstack.support.Api;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;

/**
 * An agent worker the test drives step by step: it holds its agent's job stream and keeps every
 * offer; the test decides when each job starts, asks its owner, completes or fails.
 */
final class ScriptedWorker implements AutoCloseable {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final Api api;
  private final String token;
  private final List<JsonNode> offers = new CopyOnWriteArrayList<>();
  private final Disposable stream;

  ScriptedWorker(Api api, String ownerToken, String agentId) {
    this.api = api;
    this.token = api.workerToken(ownerToken, agentId);
    this.stream =
        api.stream("/api/v1/agents/" + agentId + "/jobs/stream", token)
            .filter(event -> "job".equals(event.event()))
            .map(ServerSentEvent::data)
            .map(api::json)
            .subscribe(offers::add);
  }

  /** The first offer matching, once it arrives. */
  JsonNode offer(Predicate<JsonNode> matching) {
    return await()
        .atMost(PATIENCE)
        .until(
            () -> offers.stream().filter(matching).findFirst().orElse(null),
            offer -> offer != null);
  }

  /** The first offer of a job, once it arrives. */
  JsonNode offerOf(String jobId) {
    return offer(o -> jobId.equals(o.path("job_id").asString()));
  }

  /** The offer that resumes a job with its owner's answer, once it arrives. */
  JsonNode resumeOf(String jobId) {
    return offer(o -> jobId.equals(o.path("job_id").asString()) && o.path("resume").isObject());
  }

  void started(JsonNode offer) {
    report(offer, Map.of("type", "started"));
  }

  void ask(JsonNode offer, String question) {
    report(
        offer,
        Map.of(
            "type",
            "input_required",
            "question",
            Map.of("kind", "clarification", "text", question)));
  }

  void complete(JsonNode offer, String answer) {
    report(offer, Map.of("type", "completed", "answer", answer));
  }

  private void report(JsonNode offer, Map<String, Object> event) {
    Map<String, Object> body = new LinkedHashMap<>(event);
    body.put("lease_token", offer.path("lease_token").asString());
    api.post("/api/v1/jobs/" + offer.path("job_id").asString() + "/events", token, body).ok();
  }

  @Override
  public void close() {
    stream.dispose();
  }
}
