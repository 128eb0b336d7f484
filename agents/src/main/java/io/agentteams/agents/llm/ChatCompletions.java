package io.agentteams.agents.llm;

import io.agentteams.sdk.jobs.Usage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A client of {@code POST <base>/chat/completions} as the OpenAI-compatible API defines it. */
public final class ChatCompletions {

  /** A call the model server refused or could not answer. */
  public static final class ChatFailure extends Exception {
    public ChatFailure(String message, @Nullable Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * A tool call the model asked for.
   *
   * @param id the call's id, which the tool's answer names
   * @param name the tool
   * @param arguments the arguments as the model wrote them: JSON, or not
   */
  public record ToolCall(String id, String name, String arguments) {}

  /**
   * The model's turn.
   *
   * @param message the assistant message as the server returned it (sent back in the next call)
   * @param content its text, if any
   * @param toolCalls the tool calls it asks for
   * @param finishReason why it stopped
   * @param totalTokens the tokens the server counted for the call (0 if it did not say)
   * @param promptTokens of them, those the model read
   * @param completionTokens of them, those the model wrote
   * @param model the model that answered, as the server named it; the one asked for when the server
   *     named none or a name the ledger would refuse (not a printable name of at most 128
   *     characters)
   */
  public record Reply(
      ObjectNode message,
      @Nullable String content,
      List<ToolCall> toolCalls,
      @Nullable String finishReason,
      long totalTokens,
      long promptTokens,
      long completionTokens,
      @Nullable String model) {}

  private final LlmSettings settings;
  private final HttpClient http;
  private final JsonMapper json;

  public ChatCompletions(LlmSettings settings, HttpClient http, JsonMapper json) {
    this.settings = settings;
    this.http = http;
    this.json = json;
  }

  /** One call: the conversation so far and the tools, answered by the model's next turn. */
  public Reply complete(ArrayNode messages, ArrayNode tools, int maxTokens) throws ChatFailure {
    ObjectNode body = json.createObjectNode();
    body.put("model", settings.model());
    body.set("messages", messages);
    if (!tools.isEmpty()) {
      body.set("tools", tools);
      body.put("tool_choice", "auto");
    }
    body.put("max_tokens", maxTokens);
    String base = settings.baseUrl().toString();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(
                    (base.endsWith("/") ? base.substring(0, base.length() - 1) : base)
                        + "/chat/completions"))
            .timeout(settings.timeout())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
    if (settings.apiKey() != null && !settings.apiKey().isBlank()) {
      request.header("Authorization", "Bearer " + settings.apiKey());
    }
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new ChatFailure("the model server could not be reached: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChatFailure("interrupted while waiting for the model", e);
    }
    String text = new String(response.body(), StandardCharsets.UTF_8);
    if (response.statusCode() / 100 != 2) {
      throw new ChatFailure(
          "the model server answered "
              + response.statusCode()
              + ": "
              + (text.length() > 300 ? text.substring(0, 300) + "..." : text),
          null);
    }
    try {
      JsonNode answer = json.readTree(text);
      JsonNode choice = answer.path("choices").path(0);
      if (!choice.path("message").isObject()) {
        throw new ChatFailure("the model server's answer has no message: " + text, null);
      }
      ObjectNode message = (ObjectNode) choice.get("message");
      List<ToolCall> calls = new ArrayList<>();
      for (JsonNode call : message.path("tool_calls")) {
        JsonNode function = call.path("function");
        JsonNode arguments = function.path("arguments");
        calls.add(
            new ToolCall(
                call.path("id").asString(""),
                function.path("name").asString(""),
                arguments.isString() ? arguments.asString() : arguments.toString()));
      }
      JsonNode content = message.get("content");
      return new Reply(
          message,
          content == null || content.isNull() ? null : content.asString(),
          calls,
          choice.path("finish_reason").isMissingNode()
              ? null
              : choice.path("finish_reason").asString(null),
          answer.path("usage").path("total_tokens").asLong(0),
          answer.path("usage").path("prompt_tokens").asLong(0),
          answer.path("usage").path("completion_tokens").asLong(0),
          modelOf(answer.path("model")));
    } catch (JacksonException e) {
      throw new ChatFailure("the model server's answer is not JSON: " + e.getMessage(), e);
    }
  }

  /** The model the server named, if the ledger can keep it; else the one asked for. */
  private @Nullable String modelOf(JsonNode named) {
    String model = named.isString() ? named.asString() : null;
    return model != null && Usage.isModelName(model) ? model : settings.model();
  }
}
