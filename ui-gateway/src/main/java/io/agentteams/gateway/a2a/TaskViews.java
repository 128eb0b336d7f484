package io.agentteams.gateway.a2a;

import io.agentteams.contracts.scheduler.A2aTaskState;
import io.agentteams.contracts.scheduler.JobStateChanged;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A team's jobs as A2A 1.0 tasks: the task id is the job id, the context id the team id, and the
 * state follows the job's ({@link A2aTaskState#ofJob}, as the scheduler's push notifications show
 * it).
 */
final class TaskViews {

  private final JsonMapper json;

  TaskViews(JsonMapper json) {
    this.json = json;
  }

  /** Whether the A2A state ends a stream: terminal, or waiting for the client. */
  static boolean endsStream(String a2aState) {
    return switch (a2aState) {
      case "TASK_STATE_COMPLETED",
          "TASK_STATE_FAILED",
          "TASK_STATE_CANCELED",
          "TASK_STATE_REJECTED",
          "TASK_STATE_INPUT_REQUIRED",
          "TASK_STATE_AUTH_REQUIRED" ->
          true;
      default -> false;
    };
  }

  /** Whether the job is over. */
  static boolean finished(JsonNode job) {
    return !JobStateChanged.isUnfinished(job.path("state").asString(""));
  }

  /** The Task object of a job, as the public API shows it. */
  ObjectNode task(JsonNode job) {
    ObjectNode task = json.createObjectNode();
    String id = job.path("id").asString();
    String context = job.path("team_id").asString();
    task.put("id", id);
    task.put("contextId", context);
    task.set("status", status(job));
    JsonNode result = job.path("result");
    if (job.path("state").asString("").equals("completed") && result.hasNonNull("answer")) {
      task.putArray("artifacts").add(artifact(job));
    }
    ObjectNode request = task.putArray("history").addObject();
    request.put("messageId", job.path("idempotency_key").asString(id));
    request.put("contextId", context);
    request.put("taskId", id);
    request.put("role", "ROLE_USER");
    request.putArray("parts").addObject().put("text", job.path("input").asString(""));
    ObjectNode metadata = task.putObject("metadata");
    metadata.put("agentTeamsJobState", job.path("state").asString(""));
    metadata.put("agentTeamsMember", job.path("member").asString(""));
    return task;
  }

  /** The TaskStatus of a job: its state, and the question or the failure as the agent's message. */
  ObjectNode status(JsonNode job) {
    String jobState = job.path("state").asString("");
    ObjectNode status = json.createObjectNode();
    status.put("state", A2aTaskState.ofJob(jobState));
    String text = null;
    if (jobState.equals("waiting_input")) {
      JsonNode question = job.path("question");
      text =
          question.hasNonNull("text")
              ? question.get("text").asString()
              : json.writeValueAsString(question.path("payload"));
    } else if (jobState.equals("failed")
        || jobState.equals("cancelled")
        || jobState.equals("interrupted")) {
      text = job.path("result").path("error").asString(null);
    }
    if (text != null) {
      ObjectNode message = status.putObject("message");
      message.put("messageId", job.path("id").asString() + "-r" + job.path("revision").asLong());
      message.put("contextId", job.path("team_id").asString());
      message.put("taskId", job.path("id").asString());
      message.put("role", "ROLE_AGENT");
      message.putArray("parts").addObject().put("text", text);
    }
    String at = job.path("finished_at").asString(null);
    status.put("timestamp", at == null ? java.time.Instant.now().toString() : at);
    return status;
  }

  /** The job's answer as the task's one artifact. */
  ObjectNode artifact(JsonNode job) {
    ObjectNode artifact = json.createObjectNode();
    artifact.put("artifactId", job.path("id").asString() + "-answer");
    artifact.put("name", "answer");
    artifact
        .putArray("parts")
        .addObject()
        .put("text", job.path("result").path("answer").asString(""))
        .put("mediaType", "text/plain");
    return artifact;
  }

  /** A {@code statusUpdate} stream result. */
  ObjectNode statusUpdate(JsonNode job) {
    ObjectNode result = json.createObjectNode();
    ObjectNode update = result.putObject("statusUpdate");
    update.put("taskId", job.path("id").asString());
    update.put("contextId", job.path("team_id").asString());
    update.set("status", status(job));
    return result;
  }

  /** An {@code artifactUpdate} stream result carrying the job's answer whole. */
  ObjectNode artifactUpdate(JsonNode job) {
    ObjectNode result = json.createObjectNode();
    ObjectNode update = result.putObject("artifactUpdate");
    update.put("taskId", job.path("id").asString());
    update.put("contextId", job.path("team_id").asString());
    update.set("artifact", artifact(job));
    update.put("append", false);
    update.put("lastChunk", true);
    return result;
  }

  /** A {@code task} stream result. */
  ObjectNode taskResult(JsonNode job) {
    ObjectNode result = json.createObjectNode();
    result.set("task", task(job));
    return result;
  }
}
