package io.agentteams.scheduler.dispatch.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.MemberRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A job-scoped member token is minted only under the lease the job is currently held under. */
class JobMemberTokensTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration TTL = Duration.ofMinutes(15);
  private static final UUID TEAM = UUID.randomUUID();

  private final JobMemberTokens tokens =
      new JobMemberTokens(TestIdentity.dispatchSigningKeys(), "agent-teams-api", Clock.systemUTC());
  private final CallerTokens gateway = TestIdentity.jobMemberVerifier();

  private static Job admitted() {
    Job job =
        Job.create(
            JobSpec.ownerRequest(
                UUID.randomUUID(),
                TEAM,
                "alice",
                new MemberRef("writer", "agent-a", "conv-writer"),
                "do it",
                "k1",
                T0),
            1);
    job.admit("r1", T0);
    return job;
  }

  private static String refusal(Runnable mint) {
    try {
      mint.run();
    } catch (DomainFailure e) {
      return e.code();
    }
    throw new AssertionError("a token was minted");
  }

  @Test
  void aTokenNamesTheJobAndTheNumberOfTheLeaseItWasMintedUnder() {
    Job job = admitted();
    job.offer("1-a", T0, LEASE);
    assertThat(gateway.verify(tokens.issue(job, "1-a", TTL)))
        .isEqualTo(new Caller.Member("alice", TEAM, "writer", job.id(), 1));

    job.release("1-a", T0);
    job.offer("2-b", T0, LEASE);
    assertThat(gateway.verify(tokens.issue(job, "2-b", TTL)))
        .isEqualTo(new Caller.Member("alice", TEAM, "writer", job.id(), 2));
  }

  @Test
  void noTokenIsMintedForAJobWithoutAHeldLease() {
    Job job = admitted();
    assertThat(refusal(() -> tokens.issue(job, "1-a", TTL)))
        .as("never offered")
        .isEqualTo("stale-lease");

    job.offer("1-a", T0, LEASE);
    assertThat(refusal(() -> tokens.issue(job, "1-guessed", TTL)))
        .as("a token that is not the lease's")
        .isEqualTo("stale-lease");

    job.release("1-a", T0);
    assertThat(refusal(() -> tokens.issue(job, "1-a", TTL)))
        .as("given back, not offered again yet")
        .isEqualTo("stale-lease");

    job.offer("2-b", T0, LEASE);
    assertThat(refusal(() -> tokens.issue(job, "1-a", TTL)))
        .as("the lease of an earlier offer")
        .isEqualTo("stale-lease");

    job.start("2-b", null, T0);
    job.complete("2-b", "done", 1_000, Usage.NONE, null, T0);
    assertThat(refusal(() -> tokens.issue(job, "2-b", TTL)))
        .as("the job is over")
        .isEqualTo("stale-lease");
  }
}
