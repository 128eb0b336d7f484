package io.agentteams.gateway.a2a;

import io.agentteams.contracts.scheduler.A2aTaskState;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a team's A2A operations stand for in the public API: each the scheduler's REST call, made
 * through the gateway's one internal client as the team's owner (the caller is the owner, or holds
 * this team's A2A token), with every job checked to be this team's first. A service's 404 is
 * task-not-found, another refusal its detail as invalid params, anything else an internal error.
 */
final class TeamJobs {

  private final InternalCalls calls;
  private final ServiceEndpoints services;
  private final JsonMapper json;

  TeamJobs(InternalCalls calls, ServiceEndpoints services, JsonMapper json) {
    this.calls = calls;
    this.services = services;
    this.json = json;
  }

  /** A job of the caller's owner, whatever its team. */
  Mono<JsonNode> job(Caller caller, String jobId) {
    return call(caller, HttpMethod.GET, "/api/v1/jobs/" + jobId, null);
  }

  /**
   * The job, if it is one of this team's; otherwise one and the same task-not-found, whether the
   * job is another team's of the same owner or does not exist at all.
   */
  Mono<JsonNode> teamJob(Caller caller, UUID teamId, String taskId) {
    try {
      UUID.fromString(taskId);
    } catch (IllegalArgumentException notAnId) {
      return Mono.error(RpcError.taskNotFound(taskId));
    }
    return job(caller, taskId)
        .onErrorMap(
            error -> error instanceof RpcError rpc && rpc.code() == RpcError.TASK_NOT_FOUND,
            error -> RpcError.taskNotFound(taskId))
        .filter(job -> teamId.toString().equals(job.path("team_id").asString("")))
        .switchIfEmpty(Mono.error(RpcError.taskNotFound(taskId)));
  }

  /** A new owner request to the team's lead, under the message id as idempotency key. */
  Mono<JsonNode> request(Caller caller, UUID teamId, JsonNode team, String text, String messageId) {
    String lead = null;
    for (JsonNode member : team.path("members")) {
      if (member.path("lead").asBoolean(false)) {
        lead = member.path("name").asString();
      }
    }
    if (lead == null) {
      return Mono.error(new RpcError(RpcError.INTERNAL_ERROR, "the team has no lead"));
    }
    return call(
            caller,
            HttpMethod.POST,
            "/api/v1/teams/" + teamId + "/requests",
            Map.of("recipients", List.of(lead), "text", text, "idempotency_key", messageId))
        .flatMap(created -> job(caller, created.path("jobs").path(0).path("id").asString("")));
  }

  /** Answers the team's task waiting for input with {@code text}. */
  Mono<JsonNode> answer(Caller caller, UUID teamId, String taskId, String text) {
    return teamJob(caller, teamId, taskId)
        .flatMap(
            job -> {
              if (!"waiting_input".equals(TeamJobs.state(job))) {
                return Mono.error(
                    new RpcError(
                        RpcError.INVALID_PARAMS,
                        "task "
                            + taskId
                            + " is not waiting for input ("
                            + A2aTaskState.ofJob(TeamJobs.state(job))
                            + "); a new message starts a new task"));
              }
              return call(
                      caller,
                      HttpMethod.POST,
                      "/api/v1/jobs/" + taskId + "/answer",
                      Map.of("text", text))
                  .then(job(caller, taskId));
            });
  }

  /** Cancels the job; emits it as it is afterwards. */
  Mono<JsonNode> cancel(Caller caller, String jobId) {
    return call(caller, HttpMethod.POST, "/api/v1/jobs/" + jobId + "/cancel", Map.of())
        .then(job(caller, jobId));
  }

  // ---- push-notification configs: the scheduler keeps them and sends the pushes ----

  /** Whether the scheduler would accept the config (checked before a task is made for it). */
  Mono<Void> checkPushConfig(Caller caller, JsonNode config) {
    return call(caller, HttpMethod.POST, "/api/internal/v1/push-configs/checks", pushBody(config))
        .then();
  }

  /** Saves an A2A TaskPushNotificationConfig for the task; emits it as saved. */
  Mono<JsonNode> savePushConfig(Caller caller, String taskId, JsonNode config) {
    return call(
            caller, HttpMethod.POST, "/api/v1/jobs/" + taskId + "/push-configs", pushBody(config))
        .map(saved -> pushConfig(taskId, saved));
  }

  Mono<JsonNode> pushConfig(Caller caller, String taskId, String configId) {
    return call(
            caller,
            HttpMethod.GET,
            "/api/v1/jobs/" + taskId + "/push-configs/" + pathSegment(configId),
            null)
        .map(config -> pushConfig(taskId, config));
  }

  /** The task's configs as A2A's list answer (one page). */
  Mono<JsonNode> pushConfigs(Caller caller, String taskId) {
    return call(caller, HttpMethod.GET, "/api/v1/jobs/" + taskId + "/push-configs", null)
        .map(
            list -> {
              ObjectNode configs = json.createObjectNode();
              var array = configs.putArray("configs");
              list.path("configs").forEach(config -> array.add(pushConfig(taskId, config)));
              configs.put("nextPageToken", "");
              return configs;
            });
  }

  Mono<Void> deletePushConfig(Caller caller, String taskId, String configId) {
    return call(
            caller,
            HttpMethod.DELETE,
            "/api/v1/jobs/" + taskId + "/push-configs/" + pathSegment(configId),
            null)
        .then();
  }

  private static Map<String, Object> pushBody(JsonNode config) {
    Map<String, Object> body = new LinkedHashMap<>();
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
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String state(JsonNode job) {
    return job.path("state").asString("");
  }

  static String jobId(JsonNode job) {
    return job.path("id").asString("");
  }

  private Mono<JsonNode> call(
      Caller caller, HttpMethod method, String path, @Nullable Map<String, ?> body) {
    return calls
        .send(new Caller.Owner(caller.ownerId()), services.scheduler(), method, path, body)
        .onErrorMap(
            ProblemException.class,
            problem ->
                switch (problem.kind()) {
                  case NOT_FOUND -> new RpcError(RpcError.TASK_NOT_FOUND, detail(problem));
                  case UNAVAILABLE, INTERNAL ->
                      new RpcError(RpcError.INTERNAL_ERROR, detail(problem));
                  default -> new RpcError(RpcError.INVALID_PARAMS, detail(problem));
                });
  }

  private static String detail(ProblemException problem) {
    String detail = problem.detail();
    return detail == null || detail.isBlank() ? problem.kind().title() : detail;
  }
}
