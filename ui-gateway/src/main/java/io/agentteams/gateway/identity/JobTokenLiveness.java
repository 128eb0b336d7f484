package io.agentteams.gateway.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import java.time.Duration;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A job-scoped member token (the scheduler's, handed to a runtime with a job) acts only while its
 * job is live, only under the lease it was minted under and only as that job's member: every use
 * asks the scheduler as the member the token names (its job and lease), and a job that has ended,
 * was offered again since (to this runtime or another), is not the member's, or does not exist
 * refuses the token with 401 {@code token-job-ended}, as does a token that names no lease. A lease
 * that stopped being its job's current one never becomes it again, so its refusal is remembered; a
 * live one is asked about every time.
 */
@Component
public class JobTokenLiveness {

  /** The problem code of a job-scoped token whose job or lease is over (or was never its own). */
  public static final String JOB_ENDED = "token-job-ended";

  /** One lease of one job. */
  private record JobLease(UUID jobId, int lease) {}

  private final InternalCalls calls;
  private final ServiceEndpoints services;
  private final Cache<JobLease, Boolean> ended =
      Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(Duration.ofDays(1)).build();

  public JobTokenLiveness(InternalCalls calls, ServiceEndpoints services) {
    this.calls = calls;
    this.services = services;
  }

  /** The caller, once its job (if its token names one) is live under its lease and its own. */
  public Mono<Caller> admit(Caller caller) {
    if (!(caller instanceof Caller.Member member) || member.jobId() == null) {
      return Mono.just(caller);
    }
    UUID jobId = member.jobId();
    Integer lease = member.lease();
    if (lease == null) {
      return Mono.error(jobEnded());
    }
    JobLease key = new JobLease(jobId, lease);
    if (ended.getIfPresent(key) != null) {
      return Mono.error(jobEnded());
    }
    // The internal token names the member with its job and lease: the scheduler checks both.
    return calls
        .get(
            member,
            services.scheduler(),
            "/api/internal/v1/jobs/{id}/liveness",
            "job",
            jobId,
            jobId)
        .onErrorMap(
            error ->
                error instanceof ProblemException problem
                    && problem.kind() == ProblemException.Kind.NOT_FOUND,
            error -> jobEnded())
        .flatMap(
            answer -> {
              if (answer.path("live").asBoolean(false)) {
                return Mono.just(caller);
              }
              ended.put(key, Boolean.TRUE);
              return Mono.error(jobEnded());
            });
  }

  private static ProblemException jobEnded() {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED,
        JOB_ENDED,
        "not authenticated: this token acts only within its job under the lease it was handed out"
            + " with, which has ended (or is not its member's)");
  }
}
