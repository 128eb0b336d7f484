package io.agentteams.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class LlmSettingsTest {

  @Test
  void theServerAndModelComeFromTheEnvironmentAndHaveNoDefault() {
    assertThatThrownBy(() -> LlmSettings.fromEnvironment(Map.of()))
        .hasMessageContaining("AGENTTEAMS_LLM_BASE_URL");
    LlmSettings settings =
        LlmSettings.fromEnvironment(
            Map.of(
                "OPENAI_BASE_URL", "http://127.0.0.1:11434/v1",
                "OPENAI_MODEL", "llama3.1",
                "AGENTTEAMS_LLM_MAX_TURNS", "3"));
    assertThat(settings.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:11434/v1"));
    assertThat(settings.model()).isEqualTo("llama3.1");
    assertThat(settings.apiKey()).isNull();
    assertThat(settings.maxTurns()).isEqualTo(3);
    assertThat(settings.maxTokens()).isEqualTo(20_000);
  }

  @Test
  void theModelSeesEachToolsInputSchemaLessTheTeamIdTheJobFixes() {
    JsonNode input =
        JsonMapper.builder()
            .build()
            .readTree(
                "{\"type\":\"object\",\"properties\":{\"team_id\":{\"type\":\"string\"},"
                    + "\"title\":{\"type\":\"string\"}},\"required\":[\"team_id\",\"title\"],"
                    + "\"additionalProperties\":false}");
    JsonNode forModel = LlmAgent.modelSchema(input);
    assertThat(forModel.get("properties").has("team_id")).isFalse();
    assertThat(forModel.get("properties").has("title")).isTrue();
    assertThat(forModel.get("required").toString()).isEqualTo("[\"title\"]");
    assertThat(input.get("properties").has("team_id"))
        .as("the catalog's own is untouched")
        .isTrue();
  }
}
