package io.agentteams.devstack.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.Claims.Claim;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim checker finds each anomaly in a record made to show it, and nothing in a clean one. The
 * claims are those a Kafka-restart run recorded first; in that run the board's default claim
 * time-out (five minutes) recovered the never-heartbeated claims before the final read, so the
 * final board showed tasks 1 to 132 unowned and the checker counted each such claim as missing.
 */
class ClaimCheckerTest {

  private static final String TEAM = "8cae6ee2-8c6e-491f-93cc-21f5d680a0cb";

  private final History<Claim> claims = new History<>();
  private final Map<Long, String> owners = new HashMap<>();

  @Test
  void acknowledgedClaimsTheBoardStillShowsAndRefusedOnesAreClean() {
    claim(37, "m2", Outcome.OK);
    claim(4, "m0", Outcome.OK);
    claim(4, "m1", Outcome.FAIL);
    claim(18, "m3", Outcome.INFO);
    owners.put(18L, null);

    assertThat(ClaimChecker.check(claims.ops(), owners)).isEmpty();
  }

  @Test
  void anAcknowledgedClaimWhoseTaskTheBoardShowsUnownedIsMissingWithTheClaimAsEvidence() {
    claim(37, "m2", Outcome.OK);
    claim(2, "m2", Outcome.OK);
    owners.put(2L, null);

    assertThat(ClaimChecker.check(claims.ops(), owners))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.kind()).isEqualTo(Kind.ACKNOWLEDGED_MISSING);
              assertThat(a.evidence()).contains("claim #1", "task 2", "m2", "owned by null");
            });
  }

  @Test
  void aTaskTwoMembersWereToldTheyClaimedIsDuplicated() {
    claim(12, "m1", Outcome.OK);
    claim(12, "m3", Outcome.OK);
    owners.put(12L, "m1");

    assertThat(ClaimChecker.check(claims.ops(), owners))
        .extracting(Anomaly::kind)
        .containsExactlyInAnyOrder(Kind.DUPLICATED, Kind.ACKNOWLEDGED_MISSING);
  }

  private void claim(long task, String member, Outcome outcome) {
    long at = claims.size();
    claims.record(
        "claim-" + member,
        "claim",
        new Claim(TEAM, task, member, 1, outcome == Outcome.OK ? member : null),
        outcome,
        at,
        at + 1,
        outcome == Outcome.OK ? "200" : "409");
    if (outcome == Outcome.OK) {
      owners.putIfAbsent(task, member);
    }
  }
}
