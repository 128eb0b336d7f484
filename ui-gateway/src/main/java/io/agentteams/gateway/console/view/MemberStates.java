package io.agentteams.gateway.console.view;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Derives each member's state from the team's jobs (requests, hand-offs and receipts all run in the
 * member's conversation) and whether its agent's worker is connected. In order: a job waiting for
 * the owner's answer; a job running or being started; no worker connected (a job no worker took in
 * time, {@code waiting_worker}, or a pull agent none of whose workers holds a stream now, unless
 * the member's conversation could not be provisioned); queued work; the last finished job failed
 * (or the member's conversation could not be provisioned); otherwise idle.
 */
public final class MemberStates {

  private static final Set<String> RUNNING = Set.of("running", "admitted", "unknown");

  private MemberStates() {}

  /**
   * @param team the team and its roster
   * @param jobs the team's jobs (any order; finished ones decide "failed")
   */
  public static Map<String, MemberState> of(Team team, Collection<Job> jobs) {
    return of(team, jobs, agent -> true);
  }

  /**
   * @param team the team and its roster
   * @param jobs the team's jobs (any order; finished ones decide "failed")
   * @param workerConnected whether a pull agent (by id) has a worker connected now
   */
  public static Map<String, MemberState> of(
      Team team, Collection<Job> jobs, Predicate<String> workerConnected) {
    Map<String, MemberState> states = new LinkedHashMap<>();
    for (Team.Member member : team.members()) {
      List<Job> own = jobs.stream().filter(job -> job.member().equals(member.name())).toList();
      boolean offline =
          "pull".equals(member.runtimeKind()) && !workerConnected.test(member.agentId());
      states.put(member.name(), state(member, own, offline));
    }
    return states;
  }

  private static MemberState state(Team.Member member, List<Job> jobs, boolean offline) {
    if (jobs.stream().anyMatch(Job::waitingInput)) {
      return MemberState.WAITING_INPUT;
    }
    if (jobs.stream().anyMatch(job -> RUNNING.contains(job.state()))) {
      return MemberState.RUNNING;
    }
    if (jobs.stream().anyMatch(job -> "waiting_worker".equals(job.state()))) {
      return MemberState.NO_WORKER;
    }
    if (offline && !"failed".equals(member.provisioning())) {
      // A member whose conversation could not be provisioned is failed whatever its worker does.
      return MemberState.NO_WORKER;
    }
    if (jobs.stream().anyMatch(job -> "queued".equals(job.state()))) {
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
