package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.Job;
import java.time.Duration;
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
   * Claims up to {@code max} offerable jobs of the agent, each under a fresh lease of {@code
   * leaseTtl}. A job is claimed by one caller only, across every replica.
   */
  Flux<Offer> claim(AgentKey agent, int max, Duration leaseTtl);

  /** Applies a runtime's report to a job of its agent; a stale lease token is refused. */
  Mono<Job> report(Caller.Worker worker, UUID jobId, WorkerReport report);
}
