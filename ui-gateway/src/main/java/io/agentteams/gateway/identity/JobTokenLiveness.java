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
 * job is live and only as that job's member: every use asks the scheduler, and a job that has
 * ended, is not the member's, or does not exist refuses the token with 401 {@code token-job-ended}.
 * An ended job never runs again, so its refusal is remembered; a live one is asked about every
 * time.
 */
@Component
public class JobTokenLiveness {

  /** The problem code of a job-scoped token whose job is over (or was never the member's). */
  public static final String JOB_ENDED = "token-job-ended";

  private final InternalCalls calls;
  private final ServiceEndpoints services;
  private final Cache<UUID, Boolean> ended =
      Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(Duration.ofDays(1)).build();

  public JobTokenLiveness(InternalCalls calls, ServiceEndpoints services) {
    this.calls = calls;
    this.services = services;
  }

  /** The caller, once its job (if its token names one) is live and its own. */
  public Mono<Caller> admit(Caller caller) {
    if (!(caller instanceof Caller.Member member) || member.jobId() == null) {
      return Mono.just(caller);
    }
    UUID jobId = member.jobId();
    if (ended.getIfPresent(jobId) != null) {
      return Mono.error(jobEnded());
    }
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
              ended.put(jobId, Boolean.TRUE);
              return Mono.error(jobEnded());
            });
  }

  private static ProblemException jobEnded() {
    return new ProblemException(
        ProblemException.Kind.UNAUTHENTICATED,
        JOB_ENDED,
        "not authenticated: this token acts only within its job, which has ended (or is not its"
            + " member's)");
  }
}
