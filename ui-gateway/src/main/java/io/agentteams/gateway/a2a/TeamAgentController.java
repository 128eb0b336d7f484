package io.agentteams.gateway.a2a;

import io.agentteams.contracts.scheduler.A2aTaskState;
import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.gateway.limits.StreamSlots;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.ConnectableFlux;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each team as an A2A 1.0 agent, for its owner.
 *
 * <ul>
 *   <li>{@code GET /api/v1/teams/{teamId}/a2a/.well-known/agent-card.json}: the team's card (name,
 *       the goal as description, one skill per member, bearer authentication, the JSON-RPC
 *       interface, streaming);
 *   <li>{@code POST /api/v1/teams/{teamId}/a2a}: the JSON-RPC binding. SendMessage and
 *       SendStreamingMessage start an owner request to the team's lead (a message naming a task
 *       answers that task's question); GetTask, CancelTask and SubscribeToTask act on the team's
 *       jobs, whose ids are the task ids. Streams follow the job's state changes from the team's
 *       event feed. Push-notification configs are kept, and their pushes sent, by the scheduler.
 * </ul>
 *
 * Every operation is the scheduler's REST call it stands for ({@link TeamJobs}), made as the team's
 * owner through the gateway's internal client, so its checks and errors are the public API's; the
 * card is {@link TeamAgentCard}, the JSON-RPC wire {@link JsonRpcWire}. A team the caller may not
 * see is a 404 before the body is read.
 */
@RestController
public class TeamAgentController {

  static final String CARD_PATH = "/api/v1/teams/{teamId}/a2a/.well-known/agent-card.json";
  static final String RPC_PATH = "/api/v1/teams/{teamId}/a2a";

  private final TeamDirectory directory;
  private final TeamEventFeed feed;
  private final TeamAgentProperties properties;
  private final JsonMapper json;
  private final TaskViews views;
  private final TeamJobs jobs;
  private final JsonRpcWire wire;
  private final StreamSlots streams;

  public TeamAgentController(
      TeamDirectory directory,
      TeamEventFeed feed,
      TeamAgentProperties properties,
      JsonMapper json,
      InternalCalls calls,
      ServiceEndpoints services,
      StreamSlots streams) {
    this.directory = directory;
    this.feed = feed;
    this.properties = properties;
    this.json = json;
    this.views = new TaskViews(json);
    this.jobs = new TeamJobs(calls, services, json);
    this.wire = new JsonRpcWire(json, properties.heartbeat());
    this.streams = streams;
  }

  /** The team's agent card. */
  @GetMapping(value = CARD_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
  public Mono<JsonNode> card(Caller caller, @PathVariable UUID teamId, ServerWebExchange exchange) {
    return visibleTeam(caller, teamId)
        .map(team -> TeamAgentCard.of(json, team, TeamAgentCard.rpcUrl(exchange, teamId)));
  }

  /** The JSON-RPC binding: one request, answered with JSON or, for streams, server-sent events. */
  @PostMapping(RPC_PATH)
  public Mono<Void> rpc(
      Caller caller,
      @PathVariable UUID teamId,
      @RequestBody(required = false) @Nullable String body,
      ServerWebExchange exchange) {
    return visibleTeam(caller, teamId)
        .flatMap(team -> answer(new Call(caller, teamId, team, exchange), body));
  }

  /** Who asks about which team. */
  private record Call(Caller caller, UUID teamId, JsonNode team, ServerWebExchange exchange) {}

  /**
   * The team, for its owner or an A2A token of this very team (read as its owner); anyone else
   * learns nothing of it.
   */
  private Mono<JsonNode> visibleTeam(Caller caller, UUID teamId) {
    if (caller instanceof Caller.Owner owner) {
      return directory.team(owner, teamId);
    }
    if (caller instanceof Caller.TeamAgent agent && agent.teamId().equals(teamId)) {
      return directory.team(new Caller.Owner(agent.ownerId()), teamId);
    }
    return Mono.error(WebProblems.notFound("team", teamId));
  }

  private Mono<Void> answer(Call call, @Nullable String body) {
    ServerHttpResponse response = call.exchange().getResponse();
    JsonNode request;
    try {
      request = json.readTree(body == null ? "" : body);
    } catch (RuntimeException unreadable) {
      return wire.writeJson(
          response, wire.error(null, RpcError.PARSE_ERROR, "the body is not JSON"));
    }
    JsonNode id = request.get("id");
    String method = request.path("method").asString("");
    if (!request.isObject()
        || !"2.0".equals(request.path("jsonrpc").asString(""))
        || method.isEmpty()) {
      return wire.writeJson(
          response, wire.error(id, RpcError.INVALID_REQUEST, "not a JSON-RPC 2.0 request"));
    }
    String version = call.exchange().getRequest().getHeaders().getFirst("A2A-Version");
    if (version == null || !(version.trim().equals("1.0") || version.trim().equals("1"))) {
      return wire.writeJson(
          response,
          wire.error(
              id,
              RpcError.VERSION_NOT_SUPPORTED,
              "A2A protocol version '"
                  + (version == null ? "0.3 (no A2A-Version header)" : version)
                  + "' is not supported; supported: 1.0"));
    }
    JsonNode params = request.path("params");
    return switch (method) {
      case "SendMessage" -> wire.writeJson(response, answered(id, send(call, params)));
      case "SendStreamingMessage" -> stream(call, id, params);
      case "GetTask" ->
          wire.writeJson(
              response, answered(id, taskOf(call, params).map(job -> (JsonNode) views.task(job))));
      case "CancelTask" -> wire.writeJson(response, answered(id, cancelTask(call, params)));
      case "SubscribeToTask" -> subscribe(call, id, params);
      case "CreateTaskPushNotificationConfig" ->
          wire.writeJson(response, answered(id, createPushConfig(call, params)));
      case "GetTaskPushNotificationConfig" ->
          wire.writeJson(
              response,
              answered(
                  id,
                  configTask(call, params)
                      .flatMap(
                          task ->
                              jobs.pushConfig(
                                  call.caller(),
                                  params.path("taskId").asString(""),
                                  params.path("id").asString("")))));
      case "ListTaskPushNotificationConfigs" ->
          wire.writeJson(
              response,
              answered(
                  id,
                  configTask(call, params)
                      .flatMap(
                          task ->
                              jobs.pushConfigs(
                                  call.caller(), params.path("taskId").asString("")))));
      case "DeleteTaskPushNotificationConfig" ->
          wire.writeJson(
              response,
              answered(
                  id,
                  configTask(call, params)
                      .flatMap(
                          task ->
                              jobs.deletePushConfig(
                                  call.caller(),
                                  params.path("taskId").asString(""),
                                  params.path("id").asString("")))
                      .then(Mono.fromSupplier(() -> (JsonNode) json.createObjectNode()))));
      case "ListTasks", "GetExtendedAgentCard" ->
          wire.writeJson(
              response,
              wire.error(
                  id, RpcError.UNSUPPORTED_OPERATION, method + " is not offered by this agent"));
      default ->
          wire.writeJson(
              response, wire.error(id, RpcError.METHOD_NOT_FOUND, "unknown method " + method));
    };
  }

  /** The operation's result as a JSON-RPC response: its result, or the error it ended with. */
  private Mono<JsonNode> answered(@Nullable JsonNode id, Mono<JsonNode> result) {
    return result
        .map(done -> wire.result(id, done))
        .onErrorResume(RpcError.class, e -> Mono.just(wire.error(id, e)));
  }

  // ---- the operations ----

  private Mono<JsonNode> send(Call call, JsonNode params) {
    boolean immediately = params.path("configuration").path("returnImmediately").asBoolean(false);
    return start(call, params)
        .flatMap(
            started -> {
              if (immediately
                  || TaskViews.endsStream(A2aTaskState.ofJob(TeamJobs.state(started.job())))) {
                started.close();
                return Mono.just((JsonNode) wrapTask(started.job()));
              }
              // Blocking: answered once the task ends or stops for input, or after send-wait.
              String jobId = TeamJobs.jobId(started.job());
              return updates(call, started.job(), started.events())
                  .then(jobs.job(call.caller(), jobId))
                  .timeout(properties.sendWait(), jobs.job(call.caller(), jobId))
                  .map(job -> (JsonNode) wrapTask(job))
                  .doFinally(signal -> started.close());
            });
  }

  private Mono<Void> stream(Call call, @Nullable JsonNode id, JsonNode params) {
    Mono<Flux<JsonNode>> results =
        start(call, params)
            .map(
                started ->
                    Flux.concat(
                            Flux.just((JsonNode) views.taskResult(started.job())),
                            updates(call, started.job(), started.events()))
                        .doFinally(signal -> started.close()));
    return writeStream(call, id, results);
  }

  private Mono<JsonNode> cancelTask(Call call, JsonNode params) {
    return taskOf(call, params)
        .flatMap(
            job -> {
              if (TaskViews.finished(job) && !"cancelled".equals(TeamJobs.state(job))) {
                return Mono.error(
                    new RpcError(
                        RpcError.TASK_NOT_CANCELABLE,
                        "task "
                            + TeamJobs.jobId(job)
                            + " has ended ("
                            + TeamJobs.state(job)
                            + ")"));
              }
              return jobs.cancel(call.caller(), TeamJobs.jobId(job));
            })
        .map(job -> (JsonNode) views.task(job));
  }

  private Mono<Void> subscribe(Call call, @Nullable JsonNode id, JsonNode params) {
    Mono<Flux<JsonNode>> results =
        Mono.defer(
            () -> {
              ConnectableFlux<JobEvent> events = events(call);
              var connection = events.connect();
              return taskOf(call, params)
                  .flatMap(
                      job -> {
                        if (TaskViews.finished(job)) {
                          return Mono.<Flux<JsonNode>>error(
                              new RpcError(
                                  RpcError.UNSUPPORTED_OPERATION,
                                  "task "
                                      + TeamJobs.jobId(job)
                                      + " has ended ("
                                      + TeamJobs.state(job)
                                      + ")"));
                        }
                        return Mono.just(
                            Flux.concat(
                                Flux.just((JsonNode) views.taskResult(job)),
                                updates(call, job, events)));
                      })
                  .map(flux -> flux.doFinally(signal -> connection.dispose()))
                  .doOnError(e -> connection.dispose());
            });
    return writeStream(call, id, results);
  }

  private Mono<JsonNode> createPushConfig(Call call, JsonNode params) {
    String taskId = params.path("taskId").asString("");
    if (taskId.isBlank()) {
      return Mono.error(new RpcError(RpcError.INVALID_PARAMS, "params.taskId is required"));
    }
    return jobs.teamJob(call.caller(), call.teamId(), taskId)
        .flatMap(task -> jobs.savePushConfig(call.caller(), taskId, params));
  }

  /** The task a push-config operation names ({@code params.taskId}), if it is this team's. */
  private Mono<JsonNode> configTask(Call call, JsonNode params) {
    return jobs.teamJob(call.caller(), call.teamId(), params.path("taskId").asString(""));
  }

  /** The task a task operation names ({@code params.id}), if it is this team's. */
  private Mono<JsonNode> taskOf(Call call, JsonNode params) {
    String taskId = params.path("id").asString("");
    if (taskId.isBlank()) {
      return Mono.error(
          new RpcError(RpcError.INVALID_PARAMS, "params.id (the task id) is required"));
    }
    return jobs.teamJob(call.caller(), call.teamId(), taskId);
  }

  // ---- starting a task ----

  /** A started (or answered) job, with the team's events already followed from before it. */
  private record Started(JsonNode job, Flux<JobEvent> events, reactor.core.Disposable connection) {
    void close() {
      connection.dispose();
    }
  }

  /**
   * Starts the task a message asks for: with a task id, the message answers that task's question;
   * without, it is a new owner request to the team's lead under the message id as idempotency key.
   * The team's events are followed from before, so no state change of the job is missed.
   */
  private Mono<Started> start(Call call, JsonNode params) {
    JsonNode message = params.path("message");
    String text = text(message);
    if (!message.isObject() || text.isBlank()) {
      return Mono.error(new RpcError(RpcError.INVALID_PARAMS, "params.message needs a text part"));
    }
    String messageId = message.path("messageId").asString("");
    if (messageId.isBlank()) {
      return Mono.error(
          new RpcError(RpcError.INVALID_PARAMS, "params.message.messageId is required"));
    }
    String taskId = message.path("taskId").asString("");
    return Mono.defer(
        () -> {
          ConnectableFlux<JobEvent> events = events(call);
          var connection = events.connect();
          JsonNode push = params.path("configuration").path("taskPushNotificationConfig");
          boolean pushed = push.isObject() && !push.path("url").asString("").isBlank();
          // A config the scheduler would refuse is refused before the task is made, so an error
          // answer never leaves behind a task the client does not know of.
          Mono<Void> checked = pushed ? jobs.checkPushConfig(call.caller(), push) : Mono.empty();
          Mono<JsonNode> job =
              checked
                  .then(
                      taskId.isBlank()
                          ? jobs.request(call.caller(), call.teamId(), call.team(), text, messageId)
                          : jobs.answer(call.caller(), call.teamId(), taskId, text))
                  .flatMap(
                      started ->
                          pushed
                              ? jobs.savePushConfig(call.caller(), TeamJobs.jobId(started), push)
                                  .then(jobs.job(call.caller(), TeamJobs.jobId(started)))
                              : Mono.just(started));
          return job.map(started -> new Started(started, events, connection))
              .doOnError(e -> connection.dispose());
        });
  }

  // ---- following a job ----

  /** One state change of a job of the team, from the scheduler's events. */
  private record JobEvent(@Nullable String jobId, @Nullable String state, long revision) {}

  /** The team's job state changes, followed from now on (connect before acting). */
  private ConnectableFlux<JobEvent> events(Call call) {
    return feed.stream(
            call.teamId().toString(),
            call.caller().ownerId(),
            Optional.empty(),
            event -> event.type().equals("JobStateChanged"))
        .map(
            item -> {
              if (item instanceof TeamEventFeed.StreamItem.Event e) {
                JsonNode data = json.readTree(e.event().json()).path("data");
                return new JobEvent(
                    data.path("job_id").asString(null),
                    data.path("state").asString(null),
                    data.path("job_revision").asLong(0));
              }
              // Events were missed beyond the retained window: the job is read again.
              return new JobEvent(null, null, Long.MAX_VALUE);
            })
        .replay();
  }

  /**
   * The stream results after {@code from}: a status update for every change of the task's A2A state
   * the job's events show, ending with the task ended or stopped for input (an answer as an
   * artifact update first). Events no newer than {@code from} are skipped.
   */
  private Flux<JsonNode> updates(Call call, JsonNode from, Flux<JobEvent> events) {
    String jobId = TeamJobs.jobId(from);
    AtomicLong revision = new AtomicLong(from.path("revision").asLong());
    AtomicReference<String> shown = new AtomicReference<>(A2aTaskState.ofJob(TeamJobs.state(from)));
    if (TaskViews.endsStream(shown.get())) {
      return Flux.empty();
    }
    Flux<JsonNode> updates =
        events
            .filter(
                e ->
                    (e.jobId() == null || jobId.equals(e.jobId())) && e.revision() > revision.get())
            .concatMap(
                e -> {
                  if (e.jobId() == null || e.state() == null) {
                    return jobs.job(call.caller(), jobId)
                        .flux()
                        .concatMap(job -> shown(job, revision, shown));
                  }
                  revision.set(e.revision());
                  String a2a = A2aTaskState.ofJob(e.state());
                  if (a2a.equals(shown.get())) {
                    return Flux.empty();
                  }
                  if (TaskViews.endsStream(a2a)) {
                    // The question, the answer or the reason: read from the job itself.
                    return jobs.job(call.caller(), jobId)
                        .flux()
                        .concatMap(job -> shown(job, revision, shown));
                  }
                  shown.set(a2a);
                  ObjectNode partial = json.createObjectNode();
                  partial.put("id", jobId);
                  partial.put("team_id", from.path("team_id").asString());
                  partial.put("state", e.state());
                  partial.put("revision", e.revision());
                  return Flux.just((JsonNode) views.statusUpdate(partial));
                })
            .takeUntil(result -> ends(result));
    return updates.take(properties.streamLimit());
  }

  /** The updates a job read whole stands for, given what was shown already. */
  private Flux<JsonNode> shown(JsonNode job, AtomicLong revision, AtomicReference<String> shown) {
    revision.accumulateAndGet(job.path("revision").asLong(), Math::max);
    String a2a = A2aTaskState.ofJob(TeamJobs.state(job));
    if (a2a.equals(shown.get())) {
      return Flux.empty();
    }
    shown.set(a2a);
    if ("completed".equals(TeamJobs.state(job))) {
      return Flux.just(views.artifactUpdate(job), views.statusUpdate(job));
    }
    return Flux.just(views.statusUpdate(job));
  }

  private static boolean ends(JsonNode result) {
    JsonNode update = result.path("statusUpdate");
    return !update.isMissingNode()
        && TaskViews.endsStream(update.path("status").path("state").asString(""));
  }

  // ---- the wire ----

  private ObjectNode wrapTask(JsonNode job) {
    ObjectNode result = json.createObjectNode();
    result.set("task", views.task(job));
    return result;
  }

  /**
   * Answers a stream as server-sent events. A stream holds one of its principal's stream slots, as
   * an event stream does; beyond them it is refused (429) before any task is started.
   */
  private Mono<Void> writeStream(Call call, @Nullable JsonNode id, Mono<Flux<JsonNode>> results) {
    return streams.hold(
        call.exchange(),
        call.caller(),
        wire.writeStream(call.exchange().getResponse(), id, results));
  }

  private static String text(JsonNode message) {
    StringBuilder text = new StringBuilder();
    for (JsonNode part : message.path("parts")) {
      JsonNode value = part.get("text");
      if (value != null && value.isString()) {
        text.append(value.asString());
      }
    }
    return text.toString();
  }
}
