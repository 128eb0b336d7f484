package io.agentteams.gateway.console.team;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.gateway.console.api.ApiResult;
import org.junit.jupiter.api.Test;
import org.springframework.util.LinkedMultiValueMap;
import tools.jackson.databind.json.JsonMapper;

class StateDraftTest {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  @Test
  void aRefusalIsShownBesideTheFieldItsProblemDetailNames() {
    assertThat(
            StateDraft.fieldOf(
                refusal(
                    400,
                    "{\"code\":\"invalid-entry-kind\",\"kind\":\"opinion\","
                        + "\"detail\":\"kind 'opinion' must be one of objective, plan\"}")))
        .isEqualTo("kind");
    assertThat(
            StateDraft.fieldOf(
                refusal(422, "{\"code\":\"limit-exceeded\",\"limit\":\"state.title.max-bytes\"}")))
        .isEqualTo("title");
    assertThat(
            StateDraft.fieldOf(
                refusal(
                    422, "{\"code\":\"limit-exceeded\",\"limit\":\"state.content.max-chars\"}")))
        .isEqualTo("content");
    assertThat(
            StateDraft.fieldOf(
                refusal(
                    400,
                    "{\"code\":\"blank-field\",\"detail\":\"state.title must not be blank\"}")))
        .isEqualTo("title");
    assertThat(
            StateDraft.fieldOf(
                refusal(400, "{\"code\":\"nul-character\",\"field\":\"state.content\"}")))
        .isEqualTo("content");
  }

  @Test
  void aRefusalOfTheEntryAsAWholeNamesNoField() {
    assertThat(
            StateDraft.fieldOf(
                refusal(422, "{\"code\":\"limit-exceeded\",\"limit\":\"state.max-entries\"}")))
        .isNull();
    assertThat(
            StateDraft.fieldOf(
                refusal(409, "{\"code\":\"team-not-active\",\"detail\":\"team x is deleting\"}")))
        .isNull();
    assertThat(StateDraft.fieldOf(new ApiResult(0, null))).isNull();
  }

  @Test
  void aDraftKeepsItsRequestIdSoARepeatedSendPublishesOnce() {
    LinkedMultiValueMap<String, String> form = new LinkedMultiValueMap<>();
    form.add("request_id", "r-1");
    form.add("kind", "plan");
    form.add("title", "Plan");
    StateDraft draft = StateDraft.of(form);
    assertThat(draft.request())
        .containsEntry("request_id", "r-1")
        .containsEntry("kind", "plan")
        .containsEntry("title", "Plan")
        .containsEntry("content", "");
    assertThat(StateDraft.of(new LinkedMultiValueMap<>()).requestId()).isNotBlank();
    assertThat(StateDraft.empty().requestId()).isNotEqualTo(StateDraft.empty().requestId());
  }

  private static ApiResult refusal(int status, String json) {
    return new ApiResult(status, MAPPER.readTree(json));
  }
}
