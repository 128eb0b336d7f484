package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What of one team needs its owner: questions waiting for an answer, blocked and failed work, with
 * how much is running beside them. A failed job counts only while it is its member's latest
 * finished job (a later success clears it); failed and blocked tasks count while they stay so.
 *
 * @param teamId the team
 * @param teamName its name
 * @param running jobs under way (admitted, running, their outcome unknown)
 * @param waiting jobs waiting for the owner's answer
 * @param blocked tasks blocked
 * @param failed jobs and tasks that failed
 * @param items what needs the owner, questions first, then the oldest first
 */
public record Attention(
    UUID teamId,
    String teamName,
    int running,
    int waiting,
    int blocked,
    int failed,
    List<Item> items) {

  private static final Set<String> RUNNING = Set.of("running", "admitted", "unknown");

  public Attention {
    items = List.copyOf(items);
  }

  /** One thing that needs the owner, and where on the team page it is. */
  public record Item(Kind kind, String member, String text, String anchor, Instant since) {}

  /** What kind of thing needs the owner. */
  public enum Kind {
    QUESTION("waiting for you"),
    FAILED_JOB("job failed"),
    BLOCKED_TASK("task blocked"),
    FAILED_TASK("task failed");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The kind as a person reads it. */
    public String label() {
      return label;
    }
  }

  /**
   * @param team the team
   * @param jobs its jobs (requests, hand-offs and receipts, any order)
   * @param tasks its board
   */
  public static Attention of(Team team, Collection<Job> jobs, Collection<Task> tasks) {
    int running = 0;
    List<Item> questions = new ArrayList<>();
    List<Item> problems = new ArrayList<>();
    Map<String, Job> lastFinished = new HashMap<>();
    for (Job job : jobs) {
      if (RUNNING.contains(job.state())) {
        running++;
      }
      if (job.waitingInput()) {
        String asked = job.question() == null ? job.input() : job.question().content();
        questions.add(new Item(Kind.QUESTION, job.member(), asked, "job-" + job.id(), since(job)));
      }
      if (job.finishedAt() != null) {
        lastFinished.merge(
            job.member(),
            job,
            (one, other) -> other.finishedAt().isAfter(one.finishedAt()) ? other : one);
      }
    }
    int failedJobs = 0;
    for (Job last : lastFinished.values()) {
      if ("failed".equals(last.state())) {
        failedJobs++;
        String why =
            last.result() != null && last.result().error() != null
                ? last.result().error()
                : last.input();
        problems.add(
            new Item(Kind.FAILED_JOB, last.member(), why, "job-" + last.id(), since(last)));
      }
    }
    int blocked = 0;
    int failedTasks = 0;
    for (Task task : tasks) {
      if (task.deleted()) {
        continue;
      }
      String owner = task.owner() == null ? "" : task.owner();
      if ("blocked".equals(task.status())) {
        blocked++;
        String why = task.blockedText();
        problems.add(
            new Item(
                Kind.BLOCKED_TASK,
                owner,
                task.title() + (why == null ? "" : " — " + why),
                "task-" + task.id(),
                task.updatedAt()));
      } else if ("failed".equals(task.status())) {
        failedTasks++;
        problems.add(
            new Item(
                Kind.FAILED_TASK,
                owner,
                task.title() + (task.error() == null ? "" : " — " + task.error()),
                "task-" + task.id(),
                task.updatedAt()));
      }
    }
    Comparator<Item> oldestFirst = Comparator.comparing(Item::since);
    questions.sort(oldestFirst);
    problems.sort(oldestFirst);
    List<Item> items = new ArrayList<>(questions);
    items.addAll(problems);
    return new Attention(
        team.id(),
        team.name(),
        running,
        questions.size(),
        blocked,
        failedJobs + failedTasks,
        items);
  }

  /** How many things need the owner: waiting questions, blocked and failed work. */
  public int needsYou() {
    return waiting + blocked + failed;
  }

  /** The counts a live page shows, by name. */
  public Map<String, Integer> counts() {
    return Map.of("running", running, "waiting", waiting, "blocked", blocked, "failed", failed);
  }

  private static Instant since(Job job) {
    @Nullable Instant at = job.finishedAt() != null ? job.finishedAt() : job.startedAt();
    return at != null ? at : job.createdAt();
  }
}
