package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.TokenKeys;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The job-scoped member tokens handed to a runtime with each job, signed with the scheduler's own
 * dispatch key (EC P-256; none by default: the scheduler refuses to start without it). The gateway
 * holds the public half and accepts these tokens only as a member within one job, while the lease
 * they were minted under is the job's current one; no service accepts them, and the scheduler holds
 * no key that signs anything else.
 */
@Component
public class JobMemberTokens {

  /** The scheduler's setting for its dispatch signing keys. */
  public static final String SIGNING_KEYS = "agentteams.scheduler.dispatch-signing-keys";

  private final CallerTokens tokens;

  public JobMemberTokens(
      @Value("${" + SIGNING_KEYS + ":}") String signingKeys,
      @Value("${agentteams.scheduler.dispatch-audience:agent-teams-api}") String audience,
      Clock clock) {
    this.tokens =
        CallerTokens.signing(
            TokenKeys.internalSigning(signingKeys, SIGNING_KEYS),
            CallerTokens.JOB_MEMBER_TYPE,
            "agent-teams-scheduler",
            audience,
            clock);
  }

  /**
   * A token that acts as the job's member within the job, for {@code ttl}, and only while the lease
   * {@code leaseToken} (the one the scheduler handed the runtime) is the job's current one: the
   * token names that lease's number, which the gateway checks on every use. {@code job} is the job
   * as stored; a job not held under {@code leaseToken} (never offered, re-offered since, given
   * back, or over) gets no token.
   *
   * @throws io.agentteams.platform.problem.DomainFailure stale-lease for a lease not held
   */
  public String issue(Job job, String leaseToken, Duration ttl) {
    int lease = job.leaseNumber(leaseToken);
    JobSpec spec = job.spec();
    return tokens.issue(
        new Caller.Member(spec.ownerId(), spec.teamId(), spec.target().name(), job.id(), lease),
        ttl);
  }
}
