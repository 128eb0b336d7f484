package io.agentteams.scheduler.a2a.client;

import io.agentteams.scheduler.a2a.domain.AgentCard;
import io.agentteams.scheduler.a2a.domain.TaskSnapshot;
import io.agentteams.scheduler.a2a.domain.TaskState;
import io.agentteams.scheduler.budget.domain.Usage;
import java.math.BigDecimal;
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
    Usage usage = usage(task).atLeast(usage(task.path("status").path("message")));
    for (JsonNode artifact : task.path("artifacts")) {
      artifacts.add(
          new TaskSnapshot.Artifact(artifact.path("artifactId").asString(""), text(artifact)));
      usage = usage.atLeast(usage(artifact));
    }
    JsonNode status = task.path("status");
    return new TaskSnapshot(
        id,
        task.path("contextId").asString(""),
        TaskState.fromWire(status.path("state").asString(null)),
        messageText(status.path("message")),
        artifacts,
        usage);
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
          current == null ? List.of() : current.artifacts(),
          (current == null ? Usage.NONE : current.usage()).atLeast(usage(message)));
    }
    if (current == null) {
      throw new IllegalArgumentException(
          "the agent's first event was neither a task nor a message");
    }
    if (result.has("statusUpdate")) {
      JsonNode update = result.get("statusUpdate");
      JsonNode status = update.path("status");
      return current
          .withStatus(
              TaskState.fromWire(status.path("state").asString(null)),
              messageText(status.path("message")))
          .using(usage(update).atLeast(usage(status.path("message"))));
    }
    if (result.has("artifactUpdate")) {
      JsonNode update = result.get("artifactUpdate");
      JsonNode artifact = update.path("artifact");
      return current
          .withArtifact(
              artifact.path("artifactId").asString(""),
              text(artifact),
              update.path("append").asBoolean(false))
          .using(usage(update).atLeast(usage(artifact)));
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

  /**
   * The usage an A2A object (a task, message, artifact or update) reports in {@code
   * metadata.usage}, with the fields of a worker's report ({@code input_tokens}, {@code
   * output_tokens}, {@code tokens}, {@code cost}, {@code model}); none when it reports none. A2A
   * defines no usage field, so this is the runtime's convention. Amounts that are not non-negative
   * whole numbers count as none; a model that is not a bounded printable name is dropped (the
   * amounts still count against the budgets).
   */
  static Usage usage(JsonNode holder) {
    JsonNode usage = holder.path("metadata").path("usage");
    if (!usage.isObject()) {
      return Usage.NONE;
    }
    long in = amount(usage.path("input_tokens"));
    long out = amount(usage.path("output_tokens"));
    long tokens = Math.max(amount(usage.path("tokens")), in + out);
    long cost = amount(usage.path("cost"));
    JsonNode named = usage.path("model");
    String model = null;
    if (named.isString()) {
      try {
        model = Usage.checkModel(named.asString());
      } catch (RuntimeException unprintable) {
        model = null;
      }
    }
    return new Usage(tokens, cost, in, out, model);
  }

  /** The most one A2A usage measure may be: the ledger's sums never overflow. */
  private static final long MAX_AMOUNT = 1_000_000_000_000_000L;

  /**
   * A non-negative whole amount. A number written with a fraction that is zero ({@code 11.0})
   * counts as the whole number: agents built on protobuf's {@code Struct} (the Python A2A SDK's)
   * send every number that way. Any other fraction counts as none.
   */
  private static long amount(JsonNode value) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return Math.min(Math.max(value.asLong(), 0), MAX_AMOUNT);
    }
    if (!value.isFloatingPointNumber()) {
      return 0;
    }
    if (value.isDouble() && !Double.isFinite(value.doubleValue())) {
      return 0;
    }
    BigDecimal decimal = value.decimalValue();
    if (decimal.signum() <= 0) {
      return 0;
    }
    if (decimal.stripTrailingZeros().scale() > 0) {
      return 0;
    }
    return decimal.compareTo(BigDecimal.valueOf(MAX_AMOUNT)) >= 0
        ? MAX_AMOUNT
        : decimal.longValueExact();
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
