package io.agentteams.scheduler.dispatch.application;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.TokenKeys;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The job-scoped member tokens handed to a runtime with each job, signed with the scheduler's own
 * dispatch key (EC P-256; none by default: the scheduler refuses to start without it). The gateway
 * holds the public half and accepts these tokens only as a member within one job; no service
 * accepts them, and the scheduler holds no key that signs anything else.
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

  /** A token that acts as the job's member within the job, for {@code ttl}. */
  public String issue(Caller.Member member, Duration ttl) {
    if (member.jobId() == null) {
      throw new IllegalArgumentException("a dispatch token is always scoped to a job");
    }
    return tokens.issue(member, ttl);
  }
}
