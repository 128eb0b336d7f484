package io.agentteams.scheduler.a2a.client;

import io.agentteams.scheduler.a2a.domain.AgentCard;
import io.agentteams.scheduler.a2a.domain.TaskSnapshot;
import io.agentteams.scheduler.a2a.domain.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** Reads A2A 1.0 JSON (untrusted data) into the runtime's domain: cards, tasks, stream events. */
public final class A2aWire {

  private A2aWire() {}

  /**
   * The first interface of a card with the JSON-RPC binding at protocol version 1.x.
   *
   * @throws IllegalArgumentException naming what is missing
   */
  public static AgentCard card(JsonNode card) {
    JsonNode interfaces = card.path("supportedInterfaces");
    if (!interfaces.isArray() || interfaces.isEmpty()) {
      throw new IllegalArgumentException("the agent card lists no supportedInterfaces");
    }
    for (JsonNode candidate : interfaces) {
      String binding = candidate.path("protocolBinding").asString("").toUpperCase(Locale.ROOT);
      String version = candidate.path("protocolVersion").asString("");
      String url = candidate.path("url").asString("");
      if (binding.equals("JSONRPC") && version.startsWith("1.") && !url.isBlank()) {
        return new AgentCard(url, card.path("capabilities").path("streaming").asBoolean(false));
      }
    }
    throw new IllegalArgumentException(
        "the agent card offers no JSON-RPC interface at A2A protocol version 1.x");
  }

  /** A Task object. */
  public static TaskSnapshot task(JsonNode task) {
    String id = task.path("id").asString("");
    if (id.isBlank()) {
      throw new IllegalArgumentException("the agent returned a task without an id");
    }
    List<TaskSnapshot.Artifact> artifacts = new ArrayList<>();
    for (JsonNode artifact : task.path("artifacts")) {
      artifacts.add(
          new TaskSnapshot.Artifact(artifact.path("artifactId").asString(""), text(artifact)));
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
   * {@code artifactUpdate} or {@code message}), moving {@code current} on; null for the first.
   */
  public static TaskSnapshot apply(@Nullable TaskSnapshot current, JsonNode result) {
    if (result.has("task")) {
      return task(result.get("task"));
    }
    if (result.has("message")) {
      // A direct answer without a task: the exchange is over.
      JsonNode message = result.get("message");
      return new TaskSnapshot(
          current == null ? null : current.taskId(),
          message.path("contextId").asString(current == null ? "" : current.contextId()),
          TaskState.COMPLETED,
          messageText(message),
          current == null ? List.of() : current.artifacts());
    }
    if (current == null) {
      throw new IllegalArgumentException(
          "the agent's first event was neither a task nor a message");
    }
    if (result.has("statusUpdate")) {
      JsonNode status = result.get("statusUpdate").path("status");
      return current.withStatus(
          TaskState.fromWire(status.path("state").asString(null)),
          messageText(status.path("message")));
    }
    if (result.has("artifactUpdate")) {
      JsonNode update = result.get("artifactUpdate");
      JsonNode artifact = update.path("artifact");
      return current.withArtifact(
          artifact.path("artifactId").asString(""),
          text(artifact),
          update.path("append").asBoolean(false));
    }
    throw new IllegalArgumentException("the agent sent an event of no known kind");
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
