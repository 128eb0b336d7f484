package io.agentteams.scheduler.dispatch.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.StreamDrain;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.application.OfferView;
import io.agentteams.scheduler.dispatch.application.PullStreams;
import io.agentteams.scheduler.dispatch.application.StreamPresence;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/agents/{agentId}/jobs/stream}: an agent worker's stream of admitted jobs
 * (event {@code job}), each under a lease the worker asked for with {@code lease_seconds}. A worker
 * that names itself with {@code worker_id} and says how many jobs it runs at once with {@code
 * max_jobs} is offered no more than that while its leases are live (across reconnects, as long as
 * it keeps its id). A job the team's lead interrupts while this worker holds its lease comes as
 * event {@code interrupt} ({@code {job_id, state}}): the worker stops the turn and reports nothing
 * more for it. Idle streams get heartbeat comments. While the stream is open its agent's worker
 * counts as connected ({@code GET /api/v1/agents/{agentId}/worker}), whichever replica holds it.
 * Offers are claimed, not replayed: a job whose offer was lost in transit is offered again for
 * reconciliation once its lease lapses, naming the worker that held it.
 */
@RestController
public class JobStreamController {

  private static final Pattern WORKER_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");
  private static final int MAX_JOBS = 1000;

  private final PullStreams streams;
  private final JsonMapper json;
  private final SchedulerProperties.Dispatch properties;
  private final StreamDrain drain;
  private final StreamPresence presences;

  public JobStreamController(
      PullStreams streams,
      JsonMapper json,
      SchedulerProperties properties,
      StreamDrain drain,
      StreamPresence presences) {
    this.streams = streams;
    this.presences = presences;
    this.json = json;
    this.properties = properties.dispatch();
    this.drain = drain;
  }

  @GetMapping(
      path = "/api/v1/agents/{agentId}/jobs/stream",
      produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  public Flux<ServerSentEvent<Object>> stream(
      Caller.Worker worker,
      @PathVariable String agentId,
      @RequestParam(name = "lease_seconds", required = false) @Nullable Integer leaseSeconds,
      @RequestParam(name = "worker_id", required = false) @Nullable String workerId,
      @RequestParam(name = "max_jobs", required = false) @Nullable Integer maxJobs) {
    if (!worker.agentId().equals(agentId)) {
      throw new ProblemException(
          ProblemException.Kind.FORBIDDEN,
          "other-agent",
          "a worker token streams the jobs of its own agent only");
    }
    if (workerId != null && !WORKER_ID.matcher(workerId).matches()) {
      throw WebProblems.invalid(
          "invalid-worker-id", "worker_id must be 1-100 letters, digits, '.', '_', ':' or '-'");
    }
    if (maxJobs != null && (maxJobs < 1 || maxJobs > MAX_JOBS)) {
      throw new ProblemException(
          ProblemException.Kind.INVALID,
          "invalid-max-jobs",
          "max_jobs must be 1.." + MAX_JOBS,
          Map.of("limit", MAX_JOBS, "actual", maxJobs));
    }
    PullStreams.Terms terms =
        new PullStreams.Terms(
            streams.leaseTtl(leaseSeconds),
            workerId == null ? "stream-" + UUID.randomUUID() : workerId,
            maxJobs);
    AgentKey agent = new AgentKey(worker.ownerId(), agentId);
    Flux<ServerSentEvent<Object>> offers =
        streams
            .offers(agent, terms)
            .map(
                offer ->
                    ServerSentEvent.<Object>builder(OfferView.of(offer, json))
                        .event("job")
                        .id(offer.spec().id() + ":" + offer.job().offers())
                        .build());
    Flux<ServerSentEvent<Object>> interrupts =
        streams
            .interrupts(agent, terms)
            .map(
                jobId ->
                    ServerSentEvent.<Object>builder(new InterruptView(jobId, "interrupted"))
                        .event("interrupt")
                        .build());
    Flux<ServerSentEvent<Object>> heartbeats =
        Flux.interval(properties.streamHeartbeat())
            .map(tick -> ServerSentEvent.builder().comment("heartbeat").build());
    // The worker counts as connected (on every replica) from before the first comment until the
    // stream ends.
    return presences.whileOpen(
        agent,
        terms.workerId(),
        streamId ->
            Flux.concat(
                Flux.just(ServerSentEvent.builder().comment("connected").build()),
                drain.endOnShutdown(Flux.merge(offers, interrupts, heartbeats))));
  }

  /**
   * The {@code interrupt} event: the job whose turn is to stop.
   *
   * @param jobId the job, which this worker holds
   * @param state the job's state now, {@code interrupted}
   */
  public record InterruptView(UUID jobId, String state) {}
}
