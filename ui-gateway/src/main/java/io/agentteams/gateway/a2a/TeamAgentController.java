package io.agentteams.gateway.a2a;

import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.gateway.limits.StreamSlots;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.gateway.routing.ServiceTokens;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
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
 * Every operation is made as the REST call it stands for, back through this gateway with the
 * caller's own token, so authentication, limits and errors are exactly the public API's. A team the
 * caller may not see is a 404 before the body is read.
 */
@RestController
public class TeamAgentController {

  static final String CARD_PATH = "/api/v1/teams/{teamId}/a2a/.well-known/agent-card.json";
  static final String RPC_PATH = "/api/v1/teams/{teamId}/a2a";

  private static final int PARSE_ERROR = -32700;
  private static final int INVALID_REQUEST = -32600;
  private static final int METHOD_NOT_FOUND = -32601;
  private static final int INVALID_PARAMS = -32602;
  private static final int INTERNAL_ERROR = -32603;
  private static final int TASK_NOT_FOUND = -32001;
  private static final int TASK_NOT_CANCELABLE = -32002;
  private static final int UNSUPPORTED_OPERATION = -32004;
  private static final int VERSION_NOT_SUPPORTED = -32009;

  private final TeamDirectory directory;
  private final TeamEventFeed feed;
  private final TeamAgentProperties properties;
  private final JsonMapper json;
  private final TaskViews views;
  private final WebClient web;
  private final ServiceEndpoints services;
  private final ServiceTokens internalTokens;
  private final StreamSlots streams;

  public TeamAgentController(
      TeamDirectory directory,
      TeamEventFeed feed,
      TeamAgentProperties properties,
      JsonMapper json,
      WebClient.Builder web,
      ServiceEndpoints services,
      ServiceTokens internalTokens,
      StreamSlots streams) {
    this.directory = directory;
    this.feed = feed;
    this.properties = properties;
    this.json = json;
    this.views = new TaskViews(json);
    this.web = web.build();
    this.services = services;
    this.internalTokens = internalTokens;
    this.streams = streams;
  }

  /** The team's agent card. */
  @GetMapping(value = CARD_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
  public Mono<JsonNode> card(Caller caller, @PathVariable UUID teamId, ServerWebExchange exchange) {
    return visibleTeam(caller, teamId).map(team -> card(team, rpcUrl(exchange, teamId)));
  }

  private ObjectNode card(JsonNode team, String url) {
    ObjectNode card = json.createObjectNode();
    card.put("name", team.path("name").asString("team"));
    card.put("description", team.path("goal").asString(""));
    card.put("version", "1.0.0");
    ObjectNode endpoint = card.putArray("supportedInterfaces").addObject();
    endpoint.put("url", url);
    endpoint.put("protocolBinding", "JSONRPC");
    endpoint.put("protocolVersion", "1.0");
    ObjectNode capabilities = card.putObject("capabilities");
    capabilities.put("streaming", true);
    capabilities.put("pushNotifications", true);
    ObjectNode scheme = card.putObject("securitySchemes").putObject("bearer");
    ObjectNode http = scheme.putObject("httpAuthSecurityScheme");
    http.put("scheme", "Bearer");
    http.put("description", "The team owner's token");
    card.putArray("securityRequirements")
        .addObject()
        .putObject("schemes")
        .putObject("bearer")
        .putArray("list");
    card.putArray("defaultInputModes").add("text/plain");
    card.putArray("defaultOutputModes").add("text/plain");
    var skills = card.putArray("skills");
    for (JsonNode member : team.path("members")) {
      ObjectNode skill = skills.addObject();
      String name = member.path("name").asString("");
      skill.put("id", name);
      skill.put("name", name);
      skill.put(
          "description",
          (member.path("lead").asBoolean(false) ? "The team's lead, who takes every message: " : "")
              + "member '"
              + name
              + "' (agent '"
              + member.path("agent_id").asString("")
              + "')");
      skill.putArray("tags").add(member.path("lead").asBoolean(false) ? "lead" : "member");
    }
    return card;
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

  /** Who asks about which team, and how to call back through this gateway as them. */
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
      return writeJson(response, error(null, PARSE_ERROR, "the body is not JSON"));
    }
    JsonNode id = request.get("id");
    String method = request.path("method").asString("");
    if (!request.isObject()
        || !"2.0".equals(request.path("jsonrpc").asString(""))
        || method.isEmpty()) {
      return writeJson(response, error(id, INVALID_REQUEST, "not a JSON-RPC 2.0 request"));
    }
    String version = call.exchange().getRequest().getHeaders().getFirst("A2A-Version");
    if (version == null || !(version.trim().equals("1.0") || version.trim().equals("1"))) {
      return writeJson(
          response,
          error(
              id,
              VERSION_NOT_SUPPORTED,
              "A2A protocol version '"
                  + (version == null ? "0.3 (no A2A-Version header)" : version)
                  + "' is not supported; supported: 1.0"));
    }
    JsonNode params = request.path("params");
    return switch (method) {
      case "SendMessage" -> writeJson(response, send(call, id, params));
      case "SendStreamingMessage" -> stream(call, id, params);
      case "GetTask" -> writeJson(response, getTask(call, id, params));
      case "CancelTask" -> writeJson(response, cancelTask(call, id, params));
      case "SubscribeToTask" -> subscribe(call, id, params);
      case "CreateTaskPushNotificationConfig" ->
          writeJson(response, createPushConfig(call, id, params));
      case "GetTaskPushNotificationConfig" -> writeJson(response, getPushConfig(call, id, params));
      case "ListTaskPushNotificationConfigs" ->
          writeJson(response, listPushConfigs(call, id, params));
      case "DeleteTaskPushNotificationConfig" ->
          writeJson(response, deletePushConfig(call, id, params));
      case "ListTasks", "GetExtendedAgentCard" ->
          writeJson(
              response,
              Mono.just(
                  error(id, UNSUPPORTED_OPERATION, method + " is not offered by this agent")));
      default ->
          writeJson(response, Mono.just(error(id, METHOD_NOT_FOUND, "unknown method " + method)));
    };
  }

  // ---- the operations ----

  private Mono<JsonNode> send(Call call, @Nullable JsonNode id, JsonNode params) {
    boolean immediately = params.path("configuration").path("returnImmediately").asBoolean(false);
    return start(call, params)
        .flatMap(
            started -> {
              if (immediately || TaskViews.endsStream(TaskViews.state(state(started.job())))) {
                started.close();
                return Mono.just(result(id, wrapTask(started.job())));
              }
              // Blocking: answered once the task ends or stops for input, or after send-wait.
              return updates(call, started.job(), started.events())
                  .then(job(call, jobId(started.job())))
                  .timeout(properties.sendWait(), job(call, jobId(started.job())))
                  .map(job -> result(id, wrapTask(job)))
                  .doFinally(signal -> started.close());
            })
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
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

  private Mono<JsonNode> getTask(Call call, @Nullable JsonNode id, JsonNode params) {
    return teamJob(call, params)
        .map(job -> result(id, views.task(job)))
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  private Mono<JsonNode> cancelTask(Call call, @Nullable JsonNode id, JsonNode params) {
    return teamJob(call, params)
        .flatMap(
            job -> {
              if (TaskViews.finished(job) && !"cancelled".equals(state(job))) {
                return Mono.error(
                    new RpcError(
                        TASK_NOT_CANCELABLE,
                        "task " + jobId(job) + " has ended (" + state(job) + ")"));
              }
              return rest(call, HttpMethod.POST, "/api/v1/jobs/" + jobId(job) + "/cancel", Map.of())
                  .flatMap(done -> job(call, jobId(job)));
            })
        .map(job -> result(id, views.task(job)))
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  private Mono<Void> subscribe(Call call, @Nullable JsonNode id, JsonNode params) {
    Mono<Flux<JsonNode>> results =
        Mono.defer(
            () -> {
              ConnectableFlux<JobEvent> events = events(call);
              var connection = events.connect();
              return teamJob(call, params)
                  .flatMap(
                      job -> {
                        if (TaskViews.finished(job)) {
                          return Mono.<Flux<JsonNode>>error(
                              new RpcError(
                                  UNSUPPORTED_OPERATION,
                                  "task " + jobId(job) + " has ended (" + state(job) + ")"));
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

  // ---- push-notification configs: the scheduler keeps them and sends the pushes ----

  private Mono<JsonNode> createPushConfig(Call call, @Nullable JsonNode id, JsonNode params) {
    String taskId = params.path("taskId").asString("");
    if (taskId.isBlank()) {
      return Mono.just(error(id, INVALID_PARAMS, "params.taskId is required"));
    }
    return teamJob(call, taskId)
        .flatMap(job -> savePushConfig(call, taskId, params))
        .map(config -> result(id, config))
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  private Mono<JsonNode> savePushConfig(Call call, String taskId, JsonNode config) {
    return rest(call, HttpMethod.POST, "/api/v1/jobs/" + taskId + "/push-configs", pushBody(config))
        .map(saved -> pushConfig(taskId, saved));
  }

  private static Map<String, Object> pushBody(JsonNode config) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    String configId = config.path("id").asString("");
    if (!configId.isBlank()) {
      body.put("id", configId);
    }
    body.put("url", config.path("url").asString(""));
    String token = config.path("token").asString("");
    if (!token.isBlank()) {
      body.put("token", token);
    }
    JsonNode auth = config.path("authentication");
    if (auth.isObject()) {
      body.put(
          "authentication",
          Map.of(
              "scheme", auth.path("scheme").asString(""),
              "credentials", auth.path("credentials").asString("")));
    }
    return body;
  }

  private Mono<JsonNode> getPushConfig(Call call, @Nullable JsonNode id, JsonNode params) {
    String taskId = params.path("taskId").asString("");
    String configId = params.path("id").asString("");
    return teamJob(call, taskId)
        .flatMap(
            job ->
                rest(
                    call,
                    HttpMethod.GET,
                    "/api/v1/jobs/" + taskId + "/push-configs/" + pathSegment(configId),
                    null))
        .map(config -> result(id, pushConfig(taskId, config)))
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  private Mono<JsonNode> listPushConfigs(Call call, @Nullable JsonNode id, JsonNode params) {
    String taskId = params.path("taskId").asString("");
    return teamJob(call, taskId)
        .flatMap(
            job -> rest(call, HttpMethod.GET, "/api/v1/jobs/" + taskId + "/push-configs", null))
        .map(
            list -> {
              ObjectNode configs = json.createObjectNode();
              var array = configs.putArray("configs");
              list.path("configs").forEach(config -> array.add(pushConfig(taskId, config)));
              configs.put("nextPageToken", "");
              return result(id, configs);
            })
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  private Mono<JsonNode> deletePushConfig(Call call, @Nullable JsonNode id, JsonNode params) {
    String taskId = params.path("taskId").asString("");
    String configId = params.path("id").asString("");
    return teamJob(call, taskId)
        .flatMap(
            job ->
                rest(
                    call,
                    HttpMethod.DELETE,
                    "/api/v1/jobs/" + taskId + "/push-configs/" + pathSegment(configId),
                    null))
        .map(done -> result(id, json.createObjectNode()))
        .onErrorResume(RpcError.class, e -> Mono.just(error(id, e.code, e.getMessage())));
  }

  /** A config as A2A's TaskPushNotificationConfig. */
  private JsonNode pushConfig(String taskId, JsonNode saved) {
    ObjectNode config = json.createObjectNode();
    config.put("taskId", taskId);
    config.put("id", saved.path("id").asString(""));
    config.put("url", saved.path("url").asString(""));
    if (saved.hasNonNull("token")) {
      config.put("token", saved.get("token").asString());
    }
    JsonNode auth = saved.path("authentication");
    if (auth.isObject()) {
      ObjectNode authentication = config.putObject("authentication");
      authentication.put("scheme", auth.path("scheme").asString(""));
      if (auth.hasNonNull("credentials")) {
        authentication.put("credentials", auth.get("credentials").asString());
      }
    }
    return config;
  }

  private static String pathSegment(String text) {
    return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
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
      return Mono.error(new RpcError(INVALID_PARAMS, "params.message needs a text part"));
    }
    String messageId = message.path("messageId").asString("");
    if (messageId.isBlank()) {
      return Mono.error(new RpcError(INVALID_PARAMS, "params.message.messageId is required"));
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
          Mono<Void> checked =
              pushed
                  ? rest(
                          call,
                          HttpMethod.POST,
                          "/api/internal/v1/push-configs/checks",
                          pushBody(push))
                      .then()
                  : Mono.empty();
          Mono<JsonNode> job =
              checked
                  .then(
                      taskId.isBlank()
                          ? request(call, text, messageId)
                          : answerTask(call, taskId, text))
                  .flatMap(
                      started ->
                          pushed
                              ? savePushConfig(call, jobId(started), push)
                                  .then(job(call, jobId(started)))
                              : Mono.just(started));
          return job.map(started -> new Started(started, events, connection))
              .doOnError(e -> connection.dispose());
        });
  }

  private Mono<JsonNode> request(Call call, String text, String messageId) {
    String lead = null;
    for (JsonNode member : call.team().path("members")) {
      if (member.path("lead").asBoolean(false)) {
        lead = member.path("name").asString();
      }
    }
    if (lead == null) {
      return Mono.error(new RpcError(INTERNAL_ERROR, "the team has no lead"));
    }
    return rest(
            call,
            HttpMethod.POST,
            "/api/v1/teams/" + call.teamId() + "/requests",
            Map.of("recipients", List.of(lead), "text", text, "idempotency_key", messageId))
        .flatMap(created -> job(call, created.path("jobs").path(0).path("id").asString("")));
  }

  private Mono<JsonNode> answerTask(Call call, String taskId, String text) {
    return teamJob(call, taskId)
        .flatMap(
            job -> {
              if (!"waiting_input".equals(state(job))) {
                return Mono.error(
                    new RpcError(
                        INVALID_PARAMS,
                        "task "
                            + taskId
                            + " is not waiting for input ("
                            + TaskViews.state(state(job))
                            + "); a new message starts a new task"));
              }
              return rest(
                      call,
                      HttpMethod.POST,
                      "/api/v1/jobs/" + taskId + "/answer",
                      Map.of("text", text))
                  .then(job(call, taskId));
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
    String jobId = jobId(from);
    AtomicLong revision = new AtomicLong(from.path("revision").asLong());
    AtomicReference<String> shown = new AtomicReference<>(TaskViews.state(state(from)));
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
                    return job(call, jobId).flux().concatMap(job -> shown(job, revision, shown));
                  }
                  revision.set(e.revision());
                  String a2a = TaskViews.state(e.state());
                  if (a2a.equals(shown.get())) {
                    return Flux.empty();
                  }
                  if (TaskViews.endsStream(a2a)) {
                    // The question, the answer or the reason: read from the job itself.
                    return job(call, jobId).flux().concatMap(job -> shown(job, revision, shown));
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
    String a2a = TaskViews.state(state(job));
    if (a2a.equals(shown.get())) {
      return Flux.empty();
    }
    shown.set(a2a);
    if ("completed".equals(state(job))) {
      return Flux.just(views.artifactUpdate(job), views.statusUpdate(job));
    }
    return Flux.just(views.statusUpdate(job));
  }

  private static boolean ends(JsonNode result) {
    JsonNode update = result.path("statusUpdate");
    return !update.isMissingNode()
        && TaskViews.endsStream(update.path("status").path("state").asString(""));
  }

  // ---- the public API, as the caller ----

  private Mono<JsonNode> teamJob(Call call, JsonNode params) {
    String taskId = params.path("id").asString("");
    if (taskId.isBlank()) {
      return Mono.error(new RpcError(INVALID_PARAMS, "params.id (the task id) is required"));
    }
    return teamJob(call, taskId);
  }

  /**
   * The job, if it is one of this team's; otherwise one and the same task-not-found, whether the
   * job is another team's of the same owner or does not exist at all.
   */
  private Mono<JsonNode> teamJob(Call call, String taskId) {
    try {
      UUID.fromString(taskId);
    } catch (IllegalArgumentException notAnId) {
      return Mono.error(taskNotFound(taskId));
    }
    return job(call, taskId)
        .onErrorMap(
            error -> error instanceof RpcError rpc && rpc.code == TASK_NOT_FOUND,
            error -> taskNotFound(taskId))
        .filter(job -> call.teamId().toString().equals(job.path("team_id").asString("")))
        .switchIfEmpty(Mono.error(taskNotFound(taskId)));
  }

  private static RpcError taskNotFound(String taskId) {
    return new RpcError(TASK_NOT_FOUND, "task " + taskId + " not found");
  }

  private Mono<JsonNode> job(Call call, String jobId) {
    return rest(call, HttpMethod.GET, "/api/v1/jobs/" + jobId, null);
  }

  /**
   * The REST call an operation stands for, made to the scheduler as the team's owner (the caller is
   * the owner, or holds this team's A2A token, and every job is checked to be this team's first); a
   * 404 is task-not-found, another refusal its Problem Details' detail as invalid params.
   */
  private Mono<JsonNode> rest(
      Call call, HttpMethod method, String path, @Nullable Map<String, ?> body) {
    String token =
        internalTokens.forService(services.scheduler(), new Caller.Owner(call.caller().ownerId()));
    WebClient.RequestBodySpec request =
        web.method(method)
            .uri(services.scheduler() + path)
            .header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    WebClient.RequestHeadersSpec<?> ready =
        body == null ? request : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
    return ready.exchangeToMono(
        response ->
            response
                .bodyToMono(String.class)
                .defaultIfEmpty("{}")
                .flatMap(
                    text -> {
                      int status = response.statusCode().value();
                      JsonNode answer = json.readTree(text);
                      if (response.statusCode().is2xxSuccessful()) {
                        return Mono.just(answer);
                      }
                      if (status == 404) {
                        return Mono.error(
                            new RpcError(
                                TASK_NOT_FOUND, answer.path("detail").asString("not found")));
                      }
                      if (status >= 400 && status < 500) {
                        return Mono.error(
                            new RpcError(
                                INVALID_PARAMS,
                                answer.path("detail").asString("refused with " + status)));
                      }
                      return Mono.error(
                          new RpcError(INTERNAL_ERROR, "the service answered " + status));
                    }));
  }

  // ---- JSON-RPC on the wire ----

  /** A JSON-RPC error to answer with. */
  private static final class RpcError extends RuntimeException {
    private final int code;

    RpcError(int code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  private ObjectNode wrapTask(JsonNode job) {
    ObjectNode result = json.createObjectNode();
    result.set("task", views.task(job));
    return result;
  }

  private JsonNode result(@Nullable JsonNode id, JsonNode result) {
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? json.nullNode() : id);
    response.set("result", result);
    return response;
  }

  private JsonNode error(@Nullable JsonNode id, int code, @Nullable String message) {
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? json.nullNode() : id);
    ObjectNode error = response.putObject("error");
    error.put("code", code);
    error.put("message", message == null ? "error" : message);
    return response;
  }

  private Mono<Void> writeJson(ServerHttpResponse response, JsonNode body) {
    return writeJson(response, Mono.just(body));
  }

  private Mono<Void> writeJson(ServerHttpResponse response, Mono<JsonNode> body) {
    return body.flatMap(
        node -> {
          response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
          return response.writeWith(Mono.just(buffer(response, json.writeValueAsString(node))));
        });
  }

  /**
   * Answers a stream: each result as an SSE {@code data} line holding a JSON-RPC response, with
   * keep-alive comments while idle. A refusal before the stream starts is one JSON response.
   */
  private Mono<Void> writeStream(Call call, @Nullable JsonNode id, Mono<Flux<JsonNode>> results) {
    // A stream holds one of its principal's stream slots, as an event stream does; beyond them it
    // is refused (429) before any task is started.
    return streams.hold(call.exchange(), call.caller(), writeHeldStream(call, id, results));
  }

  private Mono<Void> writeHeldStream(
      Call call, @Nullable JsonNode id, Mono<Flux<JsonNode>> results) {
    ServerHttpResponse response = call.exchange().getResponse();
    return results
        .flatMap(
            flux -> {
              response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
              response.getHeaders().setCacheControl("no-cache");
              Flux<String> events =
                  flux.map(r -> "data: " + json.writeValueAsString(result(id, r)) + "\n\n")
                      .onErrorResume(
                          e ->
                              Flux.just(
                                  "data: "
                                      + json.writeValueAsString(
                                          error(
                                              id,
                                              e instanceof RpcError rpc ? rpc.code : INTERNAL_ERROR,
                                              e.getMessage()))
                                      + "\n\n"));
              Flux<String> keepAlive =
                  Flux.interval(properties.heartbeat()).map(tick -> ": keep-alive\n\n");
              // Keep-alives stop when the results end, so the stream closes with them.
              Flux<String> all =
                  events.publish(
                      shared ->
                          Flux.merge(
                              shared,
                              keepAlive.takeUntilOther(
                                  shared.ignoreElements().then(Mono.just(1)))));
              return response.writeAndFlushWith(all.map(text -> Mono.just(buffer(response, text))));
            })
        .onErrorResume(RpcError.class, e -> writeJson(response, error(id, e.code, e.getMessage())));
  }

  private static DataBuffer buffer(ServerHttpResponse response, String text) {
    return response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String rpcUrl(ServerWebExchange exchange, UUID teamId) {
    URI uri = exchange.getRequest().getURI();
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    return base + "/api/v1/teams/" + teamId + "/a2a";
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

  private static String state(JsonNode job) {
    return job.path("state").asString("");
  }

  private static String jobId(JsonNode job) {
    return job.path("id").asString("");
  }
}
