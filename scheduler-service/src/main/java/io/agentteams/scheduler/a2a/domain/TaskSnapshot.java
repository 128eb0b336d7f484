package io.agentteams.scheduler.a2a.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What the runtime knows of an A2A task: built from a Task object, then moved on by the status and
 * artifact updates of a stream. The agent's text is data: it becomes a job's answer, question or
 * failure reason, never an instruction to anyone.
 *
 * @param taskId the agent's task id; null when the agent answered with a message and no task
 * @param contextId the task's context, the member's conversation
 * @param state the task's state
 * @param statusText the text of the status message, if it has one (a question, a reason)
 * @param artifacts the task's artifacts so far, in order
 */
public record TaskSnapshot(
    @Nullable String taskId,
    String contextId,
    TaskState state,
    @Nullable String statusText,
    List<Artifact> artifacts) {

  /**
   * One artifact's text parts, joined.
   *
   * @param id the artifact id
   * @param text its text
   */
  public record Artifact(String id, String text) {}

  public TaskSnapshot {
    Objects.requireNonNull(contextId, "contextId");
    Objects.requireNonNull(state, "state");
    artifacts = List.copyOf(artifacts);
  }

  /** A Task object. */
  public static TaskSnapshot ofTask(JsonNode task) {
    String id = task.path("id").asString("");
    if (id.isBlank()) {
      throw new IllegalArgumentException("the agent returned a task without an id");
    }
    List<Artifact> artifacts = new ArrayList<>();
    for (JsonNode artifact : task.path("artifacts")) {
      artifacts.add(new Artifact(artifact.path("artifactId").asString(""), text(artifact)));
    }
    JsonNode status = task.path("status");
    return new TaskSnapshot(
        id,
        task.path("contextId").asString(""),
        TaskState.fromWire(status.path("state").asString(null)),
        messageText(status.path("message")),
        artifacts);
  }

  /**
   * Reads one result of SendMessage or one event of a stream ({@code task}, {@code statusUpdate},
   * {@code artifactUpdate} or {@code message}), moving this snapshot on; {@code current} is null
   * for the first.
   */
  public static TaskSnapshot apply(@Nullable TaskSnapshot current, JsonNode result) {
    if (result.has("task")) {
      return ofTask(result.get("task"));
    }
    if (result.has("message")) {
      // A direct answer without a task: the exchange is over.
      JsonNode message = result.get("message");
      String text = messageText(message);
      return new TaskSnapshot(
          current == null ? null : current.taskId(),
          message.path("contextId").asString(current == null ? "" : current.contextId()),
          TaskState.COMPLETED,
          text,
          current == null ? List.of() : current.artifacts());
    }
    if (current == null) {
      throw new IllegalArgumentException(
          "the agent's first event was neither a task nor a message");
    }
    if (result.has("statusUpdate")) {
      JsonNode status = result.get("statusUpdate").path("status");
      return new TaskSnapshot(
          current.taskId(),
          current.contextId(),
          TaskState.fromWire(status.path("state").asString(null)),
          messageText(status.path("message")),
          current.artifacts());
    }
    if (result.has("artifactUpdate")) {
      JsonNode update = result.get("artifactUpdate");
      JsonNode artifact = update.path("artifact");
      String id = artifact.path("artifactId").asString("");
      boolean append = update.path("append").asBoolean(false);
      List<Artifact> artifacts = new ArrayList<>(current.artifacts());
      int existing = -1;
      for (int i = 0; i < artifacts.size(); i++) {
        if (artifacts.get(i).id().equals(id)) {
          existing = i;
        }
      }
      String text = text(artifact);
      if (existing < 0) {
        artifacts.add(new Artifact(id, text));
      } else {
        String before = append ? artifacts.get(existing).text() : "";
        artifacts.set(existing, new Artifact(id, before + text));
      }
      return new TaskSnapshot(
          current.taskId(), current.contextId(), current.state(), current.statusText(), artifacts);
    }
    throw new IllegalArgumentException("the agent sent an event of no known kind");
  }

  /** The job's answer: the artifacts' text, or else the status message's. */
  public String answer() {
    StringBuilder text = new StringBuilder();
    for (Artifact artifact : artifacts) {
      if (!artifact.text().isEmpty()) {
        if (!text.isEmpty()) {
          text.append("\n\n");
        }
        text.append(artifact.text());
      }
    }
    if (text.isEmpty() && statusText != null) {
      return statusText;
    }
    return text.toString();
  }

  /** Whether {@code messageId} is among the messages of a Task object's history. */
  public static boolean historyHolds(JsonNode task, String messageId) {
    for (JsonNode message : task.path("history")) {
      if (messageId.equals(message.path("messageId").asString(null))) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String messageText(JsonNode message) {
    if (message.isMissingNode() || message.isNull()) {
      return null;
    }
    String text = text(message);
    return text.isEmpty() ? null : text;
  }

  /** The text parts of a message or an artifact, joined. */
  private static String text(JsonNode holder) {
    StringBuilder text = new StringBuilder();
    for (JsonNode part : holder.path("parts")) {
      JsonNode value = part.get("text");
      if (value != null && value.isString()) {
        text.append(value.asString());
      }
    }
    return text.toString();
  }
}
