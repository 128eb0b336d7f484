package io.agentteams.gateway.console.api;

import io.agentteams.gateway.console.view.ActivityItem;
import io.agentteams.gateway.console.view.Agent;
import io.agentteams.gateway.console.view.Job;
import io.agentteams.gateway.console.view.Message;
import io.agentteams.gateway.console.view.OwnerSpend;
import io.agentteams.gateway.console.view.Spend;
import io.agentteams.gateway.console.view.StateItem;
import io.agentteams.gateway.console.view.Task;
import io.agentteams.gateway.console.view.Team;
import io.agentteams.gateway.console.view.WorkerStatus;
import io.agentteams.platform.identity.Caller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the console shows, through the public API, as the owner. A failed read is an {@link
 * ApiResult.ApiException} carrying the API's answer (a 404 for a team that is not the owner's,
 * exactly as the API answers it).
 */
@Component
public class Reads {

  /** The most activity the API returns at once: a team's whole record (its request limits). */
  public static final int ACTIVITY_LIMIT = 200;

  /** The most tasks one page of the task board holds (its {@code list-max-page-size}). */
  static final int TASK_PAGE = 500;

  private final ConsoleApi api;
  private final JsonMapper mapper;

  public Reads(ConsoleApi api, JsonMapper mapper) {
    this.api = api;
    this.mapper = mapper;
  }

  public Mono<List<Team>> teams(Caller.Owner owner) {
    return api.get(owner, "/api/v1/teams").map(r -> list(r.orThrow(), Team.class));
  }

  public Mono<Team> team(Caller.Owner owner, UUID teamId) {
    return api.get(owner, "/api/v1/teams/" + teamId).map(r -> as(r.orThrow(), Team.class));
  }

  /** The team's whole activity, newest first. */
  public Mono<List<ActivityItem>> activity(Caller.Owner owner, UUID teamId) {
    return activity(owner, teamId, null, ACTIVITY_LIMIT);
  }

  /** A page of the team's activity, newest first, older than {@code before} when given. */
  public Mono<List<ActivityItem>> activity(
      Caller.Owner owner, UUID teamId, @Nullable UUID before, int limit) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("limit", limit);
    params.put("before", before);
    return api.get(owner, ConsoleApi.path("/api/v1/teams/{id}/activity", params, teamId))
        .map(
            r -> {
              List<ActivityItem> items = new ArrayList<>();
              for (JsonNode item : r.orThrow().path("items")) {
                items.add(
                    new ActivityItem(
                        as(item.path("request"), Job.class),
                        item.path("receipt").isObject()
                            ? as(item.path("receipt"), Job.class)
                            : null));
              }
              return items;
            });
  }

  /** The team's spend and budgets, with the owner's. */
  public Mono<Spend> spend(Caller.Owner owner, UUID teamId) {
    return api.get(owner, "/api/v1/teams/" + teamId + "/spend")
        .map(r -> as(r.orThrow(), Spend.class));
  }

  /** The owner's spend and budget across its teams, each team's total, and the trend. */
  public Mono<OwnerSpend> ownerSpend(Caller.Owner owner) {
    return api.get(owner, "/api/v1/budget").map(r -> as(r.orThrow(), OwnerSpend.class));
  }

  public Mono<Job> job(Caller.Owner owner, UUID jobId) {
    return api.get(owner, "/api/v1/jobs/" + jobId).map(r -> as(r.orThrow(), Job.class));
  }

  /**
   * The team's whole board, read a page at a time (the task board's largest pages, so a board of up
   * to {@value #TASK_PAGE} tasks is one request) and following each page's cursor to the end.
   */
  public Mono<List<Task>> tasks(Caller.Owner owner, UUID teamId) {
    return taskPage(owner, teamId, null)
        .expand(page -> page.next() == null ? Mono.empty() : taskPage(owner, teamId, page.next()))
        .concatMapIterable(TaskPage::tasks)
        .collectList();
  }

  private record TaskPage(List<Task> tasks, @Nullable String next) {}

  private Mono<TaskPage> taskPage(Caller.Owner owner, UUID teamId, @Nullable String cursor) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("limit", TASK_PAGE);
    params.put("cursor", cursor);
    return api.get(owner, ConsoleApi.path("/api/v1/teams/{id}/tasks", params, teamId))
        .map(
            r -> {
              JsonNode body = r.orThrow();
              String next =
                  body.path("next_cursor").isString() ? body.path("next_cursor").asString() : null;
              return new TaskPage(list(body.path("items"), Task.class), next);
            });
  }

  /** The team's state entries, archived ones included, and the team-state revision. */
  public Mono<StatePage> state(Caller.Owner owner, UUID teamId) {
    return api.get(owner, "/api/v1/teams/" + teamId + "/state?include_archived=true")
        .map(
            r -> {
              JsonNode body = r.orThrow();
              return new StatePage(
                  body.path("state_revision").asLong(),
                  list(body.path("entries"), StateItem.class));
            });
  }

  /** A page of the shared history, newest first, with the API's filters. */
  public Mono<HistoryPage> history(
      Caller.Owner owner,
      UUID teamId,
      @Nullable String member,
      @Nullable String job,
      @Nullable String query,
      @Nullable String cursor,
      int limit) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("member_id", member);
    params.put("job_id", job);
    params.put("query", query);
    params.put("cursor", cursor);
    params.put("limit", limit);
    return api.get(owner, ConsoleApi.path("/api/v1/teams/{id}/history", params, teamId))
        .map(
            r -> {
              JsonNode body = r.orThrow();
              String next =
                  body.path("next_cursor").isString() ? body.path("next_cursor").asString() : null;
              return new HistoryPage(
                  list(body.path("records"), Message.class),
                  next,
                  body.path("cursor_expired").asBoolean(false));
            });
  }

  /** The owner's agents matching a search (all of them for an empty one), one page. */
  public Mono<List<Agent>> agents(Caller.Owner owner, @Nullable String query, int limit) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("q", query);
    params.put("limit", limit);
    return api.get(owner, ConsoleApi.path("/api/v1/agents", params))
        .map(r -> list(r.orThrow().path("items"), Agent.class));
  }

  /** The owner's pull agents that have a worker connected now, by agent id. */
  public Mono<Map<String, WorkerStatus>> workers(Caller.Owner owner) {
    return api.get(owner, "/api/v1/workers")
        .map(
            r -> {
              Map<String, WorkerStatus> connected = new LinkedHashMap<>();
              for (WorkerStatus status : list(r.orThrow().path("workers"), WorkerStatus.class)) {
                connected.put(status.agentId(), status);
              }
              return connected;
            });
  }

  public Mono<Agent> agent(Caller.Owner owner, String agentId) {
    return api.get(owner, ConsoleApi.path("/api/v1/agents/{id}", Map.of(), agentId))
        .map(r -> as(r.orThrow(), Agent.class));
  }

  /**
   * What a read of a team's other services gives for a team they have not learned of yet: a team
   * just created reaches them through its events a moment later, and until then they answer 404.
   * The team's own read decides whether the team exists.
   */
  public static <T> Mono<T> orEmptyWhileUnknown(Mono<T> read, T empty) {
    return read.onErrorResume(
        ApiResult.ApiException.class,
        e -> e.result().status() == 404 ? Mono.just(empty) : Mono.error(e));
  }

  /** The JSON as one of the console's records. */
  public <T> T as(JsonNode node, Class<T> type) {
    return mapper.treeToValue(node, type);
  }

  private <T> List<T> list(JsonNode array, Class<T> type) {
    List<T> items = new ArrayList<>();
    for (JsonNode node : array) {
      items.add(as(node, type));
    }
    return items;
  }

  /** The team's state entries and the team-state revision. */
  public record StatePage(long revision, List<StateItem> entries) {

    /** How many entries are active, as the panel counts them. */
    public long activeCount() {
      return entries.stream().filter(entry -> !entry.archived()).count();
    }

    /** How many entries are archived. */
    public long archivedCount() {
      return entries.size() - activeCount();
    }
  }

  /** A page of history and where the next (older) one starts. */
  public record HistoryPage(List<Message> messages, @Nullable String nextCursor, boolean expired) {}
}
