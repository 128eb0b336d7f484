package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.Claims.Claim;
import io.agentteams.devstack.fault.History.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the record of claims and the final board, and finds what compare-and-set claims promise
 * never happens: a task two members were told they claimed, and a claim acknowledged to a member
 * whose task the board now shows owned by someone else or no one. Nothing in the workload releases
 * a task, and its board's claim time-out ({@link Claims#CLAIM_TIMEOUT}) is longer than any run, so
 * no claim may have expired either.
 */
final class ClaimChecker {

  private ClaimChecker() {}

  static List<Anomaly> check(List<Op<Claim>> claims, Map<Long, String> finalOwners) {
    List<Anomaly> anomalies = new ArrayList<>();
    Map<Long, Set<String>> claimants = new HashMap<>();
    Map<Long, List<Long>> evidence = new HashMap<>();
    for (Op<Claim> op : claims) {
      if (op.outcome() != Outcome.OK) {
        continue;
      }
      claimants
          .computeIfAbsent(op.value().task(), t -> new LinkedHashSet<>())
          .add(op.value().member());
      evidence.computeIfAbsent(op.value().task(), t -> new ArrayList<>()).add(op.index());
      String owner = finalOwners.get(op.value().task());
      if (!op.value().member().equals(owner)) {
        anomalies.add(
            Anomaly.of(
                Kind.ACKNOWLEDGED_MISSING,
                "claim #%d of task %d by %s was acknowledged, but the board shows it owned by %s",
                op.index(),
                op.value().task(),
                op.value().member(),
                owner));
      }
    }
    claimants.forEach(
        (task, members) -> {
          if (members.size() > 1) {
            anomalies.add(
                Anomaly.of(
                    Kind.DUPLICATED,
                    "task %d was claimed by %s (claims #%s)",
                    task,
                    members,
                    evidence.get(task)));
          }
        });
    return anomalies;
  }
}
