package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A member as the roster shows it: its binding, its live state, what it is doing (its current job
 * and the task it holds, with that task's last heartbeat) and, for a pull agent, whether a worker
 * is connected.
 *
 * @param member the member and its binding
 * @param state what it is doing, in a word
 * @param current the job it is on: one waiting for an answer, else running, else waiting
 * @param task the task it holds in progress, the most recently claimed
 * @param worker its agent's worker when one is connected
 * @param workerKnown whether the scheduler said which workers are connected
 */
public record RosterRow(
    Team.Member member,
    MemberState state,
    @Nullable Job current,
    @Nullable Task task,
    @Nullable WorkerStatus worker,
    boolean workerKnown) {

  private static final List<Set<String>> CURRENT_ORDER =
      List.of(
          Set.of("waiting_input"),
          Set.of("running", "admitted", "unknown"),
          Set.of("waiting_worker", "queued"));

  /** The roster of a team, in roster order, every worker taken as connected. */
  public static List<RosterRow> of(Team team, Collection<Job> jobs) {
    return of(team, jobs, List.of(), Workers.unknown());
  }

  /** The roster of a team, in roster order. */
  public static List<RosterRow> of(
      Team team, Collection<Job> jobs, Collection<Task> tasks, Workers workers) {
    Map<String, MemberState> states = MemberStates.of(team, jobs, workers.asPredicate());
    return team.members().stream()
        .map(
            member ->
                new RosterRow(
                    member,
                    states.getOrDefault(member.name(), MemberState.IDLE),
                    current(member, jobs).orElse(null),
                    task(member, tasks).orElse(null),
                    workers.of(member.agentId()),
                    workers.known()))
        .toList();
  }

  private static Optional<Job> current(Team.Member member, Collection<Job> jobs) {
    for (Set<String> states : CURRENT_ORDER) {
      Optional<Job> found =
          jobs.stream()
              .filter(job -> job.member().equals(member.name()) && states.contains(job.state()))
              .min(Comparator.comparing(Job::createdAt));
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Task> task(Team.Member member, Collection<Task> tasks) {
    return tasks.stream()
        .filter(
            task ->
                !task.deleted()
                    && "in_progress".equals(task.status())
                    && member.name().equals(task.owner()))
        .max(
            Comparator.comparing(
                task -> task.claimedAt() == null ? task.updatedAt() : task.claimedAt()));
  }

  /** Whether the member's agent takes its jobs through a worker's stream. */
  public boolean pull() {
    return "pull".equals(member.runtimeKind());
  }

  /** Whether a worker is connected: {@code connected}, {@code absent} or {@code unknown}. */
  public String workerState() {
    if (!workerKnown) {
      return "unknown";
    }
    return worker != null ? "connected" : "absent";
  }

  /** When the current job began: started, else admitted, else asked. */
  public @Nullable Instant currentSince() {
    if (current == null) {
      return null;
    }
    if (current.startedAt() != null) {
      return current.startedAt();
    }
    return current.admittedAt() != null ? current.admittedAt() : current.createdAt();
  }

  /** A version of the row: changes whenever anything it shows does. */
  public String version() {
    return String.join(
        ":",
        member.name(),
        state.key(),
        member.provisioning(),
        current == null ? "-" : current.version(),
        task == null ? "-" : task.id() + "/" + task.revision() + "/" + task.heartbeatCount(),
        workerState(),
        worker == null ? "-" : worker.streams() + "/" + worker.since());
  }
}
