package io.agentteams.gateway.console.view;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Derives each member's state from the team's jobs (requests, hand-offs and receipts all run in the
 * member's conversation) and from whether its agent's worker is connected. In order: a job waiting
 * for the owner's answer; a job running (or admitted, with a worker to take it); work but no worker
 * connected to a pull agent; queued work; the last finished job failed (or the member's
 * conversation could not be provisioned); otherwise idle.
 */
public final class MemberStates {

  private MemberStates() {}

  /**
   * @param team the team and its roster
   * @param jobs the team's jobs (any order; finished ones decide "failed")
   * @param workers for each agent id, whether a worker is connected; an agent absent from the map
   *     is not known either way and never shows "no worker connected"
   */
  public static Map<String, MemberState> of(
      Team team, Collection<Job> jobs, Map<String, Boolean> workers) {
    Map<String, MemberState> states = new LinkedHashMap<>();
    for (Team.Member member : team.members()) {
      List<Job> own = jobs.stream().filter(job -> job.member().equals(member.name())).toList();
      boolean pull = "pull".equals(member.runtimeKind());
      boolean noWorker = pull && Boolean.FALSE.equals(workers.get(member.agentId()));
      states.put(member.name(), state(member, own, noWorker));
    }
    return states;
  }

  private static MemberState state(Team.Member member, List<Job> jobs, boolean noWorker) {
    if (jobs.stream().anyMatch(Job::waitingInput)) {
      return MemberState.WAITING_INPUT;
    }
    if (jobs.stream().anyMatch(job -> "running".equals(job.state()))) {
      return MemberState.RUNNING;
    }
    boolean waiting =
        jobs.stream()
            .anyMatch(
                job ->
                    "admitted".equals(job.state())
                        || "queued".equals(job.state())
                        || "unknown".equals(job.state()));
    if (noWorker) {
      return MemberState.NO_WORKER;
    }
    if (jobs.stream().anyMatch(job -> "admitted".equals(job.state()))) {
      return MemberState.RUNNING;
    }
    if (waiting) {
      return MemberState.QUEUED;
    }
    if ("failed".equals(member.provisioning())) {
      return MemberState.FAILED;
    }
    Optional<Job> last =
        jobs.stream()
            .filter(job -> job.finishedAt() != null)
            .max(Comparator.comparing(Job::finishedAt));
    if (last.isPresent() && "failed".equals(last.get().state())) {
      return MemberState.FAILED;
    }
    return MemberState.IDLE;
  }
}
