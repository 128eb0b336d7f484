package io.agentteams.devstack.fault;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Every member of a team races the others through a board of ready tasks, claiming each it finds
 * unowned with the revision it read (compare-and-set); a claim whose outcome is unknown is read
 * back before the member moves on.
 *
 * <p>The members claim tasks and never work them (no heartbeats), so the board is first given the
 * longest claim time-out it allows: with its default (five minutes) it would recover every claim
 * older than that, and on a loaded machine a run outlasts it, leaving acknowledged claims unowned
 * on the final board for the checker to count as missing.
 */
final class Claims {

  /** The board's longest claim time-out (its default {@code max-claim-timeout}). */
  static final Duration CLAIM_TIMEOUT = Duration.ofHours(24);

  /** A claim: which task, by whom, from which revision, and the owner the board then showed. */
  record Claim(String team, long task, String member, long revision, @Nullable String owner) {}

  private final Client client;
  private final Team team;
  private final int tasks;
  private final History<Claim> claims = new History<>();
  private final List<Long> taskIds = Collections.synchronizedList(new ArrayList<>());
  private final Set<Long> taken = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicInteger running = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();

  private final boolean continuous;

  /**
   * @param tasks tasks on the board at the start
   * @param continuous whether to add as many again whenever all are claimed, until stopped
   */
  Claims(Client client, Team team, int tasks, boolean continuous) {
    this.client = client;
    this.team = team;
    this.tasks = tasks;
    this.continuous = continuous;
  }

  History<Claim> claims() {
    return claims;
  }

  void start() {
    keepClaimsForTheRun();
    addTasks(tasks);
    for (String member : team.names()) {
      running.incrementAndGet();
      Thread thread = new Thread(() -> claimAll(member), "claim-" + member);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  /**
   * Gives the board a claim time-out that no run outlasts, and reads it back: the team's roster may
   * reach the board a moment after the team is ready, and an unanswered change may have been made.
   */
  private void keepClaimsForTheRun() {
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .until(this::claimTimeoutSet);
  }

  private boolean claimTimeoutSet() {
    String lead = team.members().get(team.names().get(0));
    String settings = "/api/v1/teams/" + team.id() + "/tasks/settings";
    Client.Reply read = client.get(settings, lead);
    if (!read.ok()) {
      return false;
    }
    JsonNode current = read.json();
    if (current.get("effective_claim_timeout_seconds").asLong() == CLAIM_TIMEOUT.toSeconds()) {
      return true;
    }
    client.put(
        settings,
        lead,
        Map.of(
            "expected_revision",
            current.get("revision").asLong(),
            "claim_timeout_seconds",
            CLAIM_TIMEOUT.toSeconds()));
    return false;
  }

  /** Adds ready tasks to the board (a failed attempt is simply not a task). */
  private void addTasks(int count) {
    String lead = team.members().get(team.names().get(0));
    for (int i = 0; i < count; i++) {
      Client.Reply reply =
          client.post(
              "/api/v1/teams/" + team.id() + "/tasks",
              lead,
              Map.of("title", "Task " + taskIds.size()));
      if (reply.ok()) {
        taskIds.add(reply.json().get("task").get("id").asLong());
      }
    }
  }

  private void claimAll(String member) {
    String token = team.members().get(member);
    Random random = new Random(member.hashCode());
    boolean replenishes = member.equals(team.names().get(0)) && continuous;
    try {
      while (!stopping.get() && (continuous || taken.size() < taskIds.size())) {
        if (taken.size() >= taskIds.size()) {
          if (replenishes) {
            addTasks(tasks);
          } else {
            Pause.backOff();
          }
          continue;
        }
        long task = taskIds.get(random.nextInt(taskIds.size()));
        if (taken.contains(task)) {
          continue;
        }
        Client.Reply read = client.get(path(task), token);
        if (!read.ok()) {
          Pause.backOff();
          continue;
        }
        JsonNode current = read.json();
        if (!current.get("owner").isNull()) {
          taken.add(task);
          continue;
        }
        long revision = current.get("revision").asLong();
        long invoked = System.nanoTime();
        Client.Reply reply =
            client.post(path(task) + "/claim", token, Map.of("expected_revision", revision));
        String owner = reply.ok() ? reply.json().get("task").get("owner").asString() : null;
        claims.record(
            "claim-" + member,
            "claim",
            new Claim(team.id(), task, member, revision, owner),
            reply.outcome(),
            invoked,
            System.nanoTime(),
            reply.detail());
        if (reply.outcome() == Outcome.OK) {
          taken.add(task);
        } else if (reply.outcome() == Outcome.INFO) {
          Pause.backOff();
        }
      }
    } finally {
      running.decrementAndGet();
    }
  }

  private String path(long task) {
    return "/api/v1/teams/" + team.id() + "/tasks/" + task;
  }

  boolean done() {
    return running.get() == 0;
  }

  void stop() {
    stopping.set(true);
  }

  /** Each task's owner as the board shows it now. */
  Map<Long, String> finalOwners() {
    Map<Long, String> owners = new LinkedHashMap<>();
    String lead = team.members().get(team.names().get(0));
    for (long task : List.copyOf(taskIds)) {
      JsonNode current = Client.must(client.get(path(task), lead));
      owners.put(task, current.get("owner").isNull() ? null : current.get("owner").asString());
    }
    return owners;
  }
}
