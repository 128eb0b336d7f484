package io.agentteams.agents.llm;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the model is and how much one job may use of it.
 *
 * @param baseUrl the API's base, e.g. {@code http://localhost:11434/v1} for a local Ollama (the
 *     agent posts to {@code <baseUrl>/chat/completions})
 * @param model the model name the server knows
 * @param apiKey sent as a bearer token when set; local servers need none
 * @param maxTurns chat-completion calls one job may make; a job that has no final answer by then
 *     fails, saying so
 * @param maxTokens tokens (prompt and completion, as the server counts them) one job may use; a job
 *     that goes past them fails, saying so
 * @param maxTokensPerCall the completion tokens asked for at most in one call
 * @param timeout how long one call may take
 */
public record LlmSettings(
    URI baseUrl,
    String model,
    @Nullable String apiKey,
    int maxTurns,
    long maxTokens,
    int maxTokensPerCall,
    Duration timeout) {

  public LlmSettings {
    Objects.requireNonNull(baseUrl, "the model server's base URL");
    Objects.requireNonNull(model, "the model");
    if (model.isBlank()) {
      throw new IllegalArgumentException("a model name is required");
    }
    if (maxTurns < 1 || maxTokens < 1 || maxTokensPerCall < 1) {
      throw new IllegalArgumentException("turn and token bounds must be positive");
    }
  }

  /** A server and model with the default bounds: 8 turns, 20,000 tokens, 1,024 per call. */
  public static LlmSettings of(URI baseUrl, String model, @Nullable String apiKey) {
    return new LlmSettings(baseUrl, model, apiKey, 8, 20_000, 1_024, Duration.ofSeconds(120));
  }

  /**
   * From the environment: {@code AGENTTEAMS_LLM_BASE_URL} (or {@code OPENAI_BASE_URL}), {@code
   * AGENTTEAMS_LLM_MODEL} (or {@code OPENAI_MODEL}), {@code AGENTTEAMS_LLM_API_KEY} (or {@code
   * OPENAI_API_KEY}), and optionally {@code AGENTTEAMS_LLM_MAX_TURNS} and {@code
   * AGENTTEAMS_LLM_MAX_TOKENS}. There is no default server or model: a missing one is an error.
   */
  public static LlmSettings fromEnvironment(Map<String, String> environment) {
    String base = first(environment, "AGENTTEAMS_LLM_BASE_URL", "OPENAI_BASE_URL");
    String model = first(environment, "AGENTTEAMS_LLM_MODEL", "OPENAI_MODEL");
    if (base == null || model == null) {
      throw new IllegalArgumentException(
          "set AGENTTEAMS_LLM_BASE_URL and AGENTTEAMS_LLM_MODEL (e.g. http://localhost:11434/v1"
              + " and llama3.1)");
    }
    LlmSettings settings =
        of(URI.create(base), model, first(environment, "AGENTTEAMS_LLM_API_KEY", "OPENAI_API_KEY"));
    String turns = environment.get("AGENTTEAMS_LLM_MAX_TURNS");
    String tokens = environment.get("AGENTTEAMS_LLM_MAX_TOKENS");
    return new LlmSettings(
        settings.baseUrl(),
        settings.model(),
        settings.apiKey(),
        turns == null ? settings.maxTurns() : Integer.parseInt(turns),
        tokens == null ? settings.maxTokens() : Long.parseLong(tokens),
        settings.maxTokensPerCall(),
        settings.timeout());
  }

  /** The same settings with other bounds. */
  public LlmSettings bounded(int turns, long tokens) {
    return new LlmSettings(baseUrl, model, apiKey, turns, tokens, maxTokensPerCall, timeout);
  }

  private static @Nullable String first(Map<String, String> environment, String... names) {
    for (String name : names) {
      String value = environment.get(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return null;
  }
}
