package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.Job;
import java.time.Duration;
import java.util.Collection;
import java.util.UUID;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The runtime-neutral port between the scheduler and agent runtimes. Admitted jobs leave as leased
 * offers; the runtime's reports come back under the lease. The {@code pull} runtime (a worker
 * holding a stream) claims offers itself; push runtimes such as webhooks or A2A would claim them on
 * the runtime's behalf and translate its callbacks into {@link WorkerReport}s.
 */
public interface DispatchPort {

  /**
   * Claims up to {@code max} offerable jobs of the agent for the worker {@code holder}, each under
   * a fresh lease of {@code leaseTtl}. A job is claimed by one caller only, across every replica.
   */
  Flux<Offer> claim(AgentKey agent, String holder, int max, Duration leaseTtl);

  /** How many of the agent's jobs the worker {@code holder} holds a live lease on. */
  Mono<Integer> leasesHeldBy(AgentKey agent, String holder);

  /**
   * A worker of the agent has room for {@code room} more jobs: up to that many of the agent's jobs
   * that wait for a worker (less those already on their way) queue again at their old positions.
   *
   * @return how many queued again
   */
  Mono<Integer> workerHasRoom(AgentKey agent, int room);

  /**
   * Which of the given agents have jobs a worker's stream would act on: offerable ones, or ones
   * waiting for a worker. One look for every stream a replica holds, instead of one per stream.
   */
  Flux<AgentKey> withWorkForStreams(Collection<AgentKey> agents);

  /** Applies a runtime's report to a job of its agent; a stale lease token is refused. */
  Mono<Job> report(Caller.Worker worker, UUID jobId, WorkerReport report);
}
