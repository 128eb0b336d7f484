package io.agentteams.gateway.console.team;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.WorkerPresenceChanged;
import io.agentteams.gateway.console.Fragments;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.ActivityItem;
import io.agentteams.gateway.console.view.Board;
import io.agentteams.gateway.console.view.Chain;
import io.agentteams.gateway.console.view.Job;
import io.agentteams.gateway.console.view.Message;
import io.agentteams.gateway.console.view.RosterRow;
import io.agentteams.gateway.console.view.StateItem;
import io.agentteams.gateway.console.view.Task;
import io.agentteams.gateway.console.view.Team;
import io.agentteams.gateway.console.view.Workers;
import io.agentteams.gateway.stream.FeedEvent;
import io.agentteams.platform.identity.Caller;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One open team page's live view: turns each event of the team into the fragments that show its
 * effect, read fresh through the API (the event says what changed; the API says what it is now). It
 * remembers what the page shows of jobs, tasks and the roster, so an event changes only what it
 * touched. Used by one stream at a time, one event after another.
 */
final class LiveConnection {

  private final Caller.Owner owner;
  private final UUID teamId;
  private final Reads reads;
  private final Fragments fragments;
  private final JsonMapper mapper;
  private Team team;
  private final Map<UUID, Job> jobs = new LinkedHashMap<>();
  private final Map<Long, String> taskVersions = new HashMap<>();
  private final Map<String, String> rosterVersions = new HashMap<>();
  private List<Task> tasks;
  private Workers workers;

  LiveConnection(
      Caller.Owner owner,
      Team team,
      List<ActivityItem> activity,
      List<Task> tasks,
      Workers workers,
      Reads reads,
      Fragments fragments,
      JsonMapper mapper) {
    this.owner = owner;
    this.tasks = List.copyOf(tasks);
    this.workers = workers;
    this.teamId = team.id();
    this.team = team;
    this.reads = reads;
    this.fragments = fragments;
    this.mapper = mapper;
    ActivityItem.jobsOf(activity).forEach(job -> jobs.put(job.id(), job));
    roster().forEach(row -> rosterVersions.put(row.member().name(), row.version()));
  }

  /** The fragments that show an event's effect; none when the page shows nothing of it. */
  Mono<String> on(FeedEvent event) {
    JsonNode envelope = mapper.readTree(event.json());
    JsonNode data = envelope.path("data");
    if (WorkerPresenceChanged.TYPE.equals(event.type())) {
      return onPresence();
    }
    if (event.from(Topics.SCHEDULER_EVENTS)) {
      return onJob(data);
    }
    if (event.from(Topics.TASK_EVENTS)) {
      return onTasks();
    }
    if (event.from(Topics.MAILBOX_EVENTS)) {
      return "MessageQueued".equals(event.type()) ? Mono.just(message(data)) : Mono.just("");
    }
    if (event.type().startsWith("TeamState")) {
      StateItem entry = reads.as(data.path("entry"), StateItem.class);
      return Mono.just(
          fragments.render(
              "live/state",
              Map.of(
                  "entry",
                  entry,
                  "stateRevision",
                  data.path("state_revision").asLong(),
                  "teamId",
                  teamId)));
    }
    if ("TeamDeleted".equals(event.type())) {
      return Mono.just(fragments.render("live/deleted", Map.of()));
    }
    return reads
        .team(owner, teamId)
        .map(
            fresh -> {
              team = fresh;
              return fragments.render("live/team", Map.of("team", fresh)) + rosterChanges(true);
            });
  }

  /**
   * The roster rows whose worker presence changed: the event says that an agent's worker came or
   * went; the scheduler says which workers are connected now.
   */
  private Mono<String> onPresence() {
    return refreshWorkers().then(Mono.fromSupplier(() -> rosterChanges(false)));
  }

  /** Reads which workers are connected; a failed read keeps what was known. */
  private Mono<Void> refreshWorkers() {
    return reads
        .workers(owner)
        .doOnNext(connected -> workers = new Workers(connected, true))
        .onErrorResume(e -> Mono.empty())
        .then();
  }

  private Mono<String> onJob(JsonNode data) {
    String jobId = data.path("job_id").asString("");
    if (jobId.isEmpty()) {
      return Mono.just("");
    }
    return reads
        .job(owner, UUID.fromString(jobId))
        .flatMap(
            job -> {
              jobs.put(job.id(), job);
              if ("receipt".equals(job.kind()) && job.parentJobId() != null) {
                return reads
                    .job(owner, job.parentJobId())
                    .map(parent -> new ActivityItem(parent, job));
              }
              if (job.receiptJobId() != null) {
                return reads
                    .job(owner, job.receiptJobId())
                    .map(receipt -> new ActivityItem(job, receipt));
              }
              return Mono.just(new ActivityItem(job, null));
            })
        .map(
            item -> {
              jobs.put(item.request().id(), item.request());
              if (item.receipt() != null) {
                jobs.put(item.receipt().id(), item.receipt());
              }
              Chain chain = Chain.of(item.request().chainId(), jobs.values());
              return fragments.render("live/job", Map.of("item", item))
                  + fragments.render("live/chain", Map.of("chain", chain))
                  + rosterChanges(false);
            });
  }

  private Mono<String> onTasks() {
    return reads
        .tasks(owner, teamId)
        .map(
            tasks -> {
              this.tasks = tasks;
              Board board = Board.of(tasks);
              List<Task> changed = new ArrayList<>();
              Set<Long> present = new HashSet<>();
              for (Task task : tasks) {
                if (task.deleted()) {
                  continue;
                }
                present.add(task.id());
                String version = board.version(task);
                if (!version.equals(taskVersions.put(task.id(), version))) {
                  changed.add(task);
                }
              }
              List<Long> removed = new ArrayList<>();
              taskVersions.keySet().removeIf(id -> !present.contains(id) && removed.add(id));
              return fragments.render(
                      "live/tasks",
                      Map.of(
                          "board", board, "changed", changed, "removed", removed, "teamId", teamId))
                  + rosterChanges(false);
            });
  }

  private String message(JsonNode data) {
    List<String> recipients = new ArrayList<>();
    for (JsonNode recipient : data.path("recipients")) {
      recipients.add(recipient.path("member").asString());
    }
    Message message =
        new Message(
            UUID.fromString(data.path("message_id").asString()),
            data.path("sequence").asLong(),
            Instant.parse(data.path("sent_at").asString()),
            data.path("kind").asString(),
            data.path("sender_kind").asString(),
            data.path("sender").asString(),
            text(data.path("system_kind")),
            recipients,
            text(data.path("job_id")),
            text(data.path("conversation_id")),
            data.path("text").asString(""),
            false);
    return fragments.render("live/message", Map.of("message", message));
  }

  /** The roster rows whose state changed since the page last showed them (all when asked). */
  private String rosterChanges(boolean all) {
    List<RosterRow> changed = new ArrayList<>();
    for (RosterRow row : roster()) {
      if (!row.version().equals(rosterVersions.put(row.member().name(), row.version())) || all) {
        changed.add(row);
      }
    }
    return changed.isEmpty() ? "" : fragments.render("live/roster", Map.of("rows", changed));
  }

  private List<RosterRow> roster() {
    return RosterRow.of(team, jobs.values(), tasks, workers);
  }

  private static @Nullable String text(JsonNode node) {
    return node.isString() ? Objects.requireNonNull(node.asString()) : null;
  }
}
