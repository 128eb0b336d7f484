package io.agentteams.scheduler.presence.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.presence.application.Presences;
import io.agentteams.scheduler.presence.domain.WorkerPresence;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Whether the owner's agents have a pull worker connected now: {@code GET /api/v1/workers} lists
 * the agents that have one, {@code GET /api/v1/agents/{agentId}/worker} answers for one agent (not
 * connected when none of its workers holds a job stream on any replica). Push runtimes (webhook,
 * A2A) hold no stream and are not listed: they are reached whenever there is work.
 */
@RestController
public class WorkerController {

  private final Presences presences;

  public WorkerController(Presences presences) {
    this.presences = presences;
  }

  @GetMapping("/api/v1/workers")
  public Mono<Workers> connected(Caller.Owner owner) {
    return presences.connected(owner.ownerId()).map(WorkerView::of).collectList().map(Workers::new);
  }

  @GetMapping("/api/v1/agents/{agentId}/worker")
  public Mono<WorkerView> of(Caller.Owner owner, @PathVariable String agentId) {
    return presences.of(owner.ownerId(), agentId).map(WorkerView::of);
  }

  /** The owner's agents with a worker connected now. */
  public record Workers(List<WorkerView> workers) {}

  /**
   * An agent's worker presence.
   *
   * @param agentId the agent
   * @param connected whether a worker of it holds a job stream now
   * @param since when the longest-open of its streams opened
   * @param streams how many of its streams are open, across every replica
   */
  public record WorkerView(
      String agentId, boolean connected, @Nullable Instant since, int streams) {

    static WorkerView of(WorkerPresence presence) {
      return new WorkerView(
          presence.agentId(), presence.connected(), presence.since(), presence.streams());
    }
  }
}
