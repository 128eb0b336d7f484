package io.agentteams.team.agents.domain;

import static io.agentteams.team.support.TextBoundaries.assertOutcome;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.team.support.TextBoundaries;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class AgentTest {

  private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
  private static final AgentLimits LIMITS = AgentLimits.defaults();

  private static Agent register(AgentDraft draft) {
    return Agent.register(new AgentId("writer"), "owner-1", draft, LIMITS, NOW);
  }

  private static AgentDraft draft(String name, String description) {
    return new AgentDraft(name, description, "pull", null, List.of("board"));
  }

  private static AgentDraft runtime(String kind, @Nullable String endpoint) {
    return new AgentDraft("Writer", "writes", kind, endpoint, List.of());
  }

  static Stream<Arguments> nameBoundaries() {
    return TextBoundaries.of("agent.name", 80, 160);
  }

  static Stream<Arguments> descriptionBoundaries() {
    return TextBoundaries.of("agent.description", 2000, 4000);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nameBoundaries")
  void checksTheNameAtItsCharacterAndByteBoundaries(
      String label, String name, @Nullable String expected) {
    assertOutcome(() -> register(draft(name, "writes")), expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("descriptionBoundaries")
  void checksTheDescriptionAtItsCharacterAndByteBoundaries(
      String label, String description, @Nullable String expected) {
    assertOutcome(() -> register(draft("Writer", description)), expected);
  }

  @Test
  void needsANameButNotADescription() {
    assertOutcome(() -> register(draft(" ", "writes")), "blank-field");
    assertThat(register(new AgentDraft("Writer", null, "pull", null, null)).description())
        .isEmpty();
  }

  @Test
  void aPullAgentHasNoEndpoint() {
    assertThat(register(runtime("pull", null)).runtime()).isEqualTo(AgentRuntime.pull());
    assertOutcome(() -> register(runtime("pull", "https://a.example")), "unexpected-endpoint");
  }

  @ParameterizedTest
  @ValueSource(strings = {"webhook", "a2a"})
  void webhookAndA2aAgentsNeedAnAbsoluteHttpEndpointWithoutCredentials(String kind) {
    assertThat(register(runtime(kind, "https://agents.example/hook")).runtime().endpoint())
        .isEqualTo("https://agents.example/hook");
    assertThat(register(runtime(kind, "http://127.0.0.1:9000/a2a")).runtime().kind().wire())
        .isEqualTo(kind);
    assertOutcome(() -> register(runtime(kind, null)), "missing-endpoint");
    assertOutcome(() -> register(runtime(kind, "ftp://agents.example")), "invalid-endpoint");
    assertOutcome(() -> register(runtime(kind, "/relative/path")), "invalid-endpoint");
    assertOutcome(
        () -> register(runtime(kind, "https://user:secret@agents.example")), "invalid-endpoint");
    assertOutcome(() -> register(runtime(kind, "https://agents example")), "invalid-endpoint");
  }

  @Test
  void anEndpointIsAtMost2048Bytes() {
    String prefix = "https://agents.example/";
    String fits = prefix + "a".repeat(2048 - prefix.length());
    assertThat(register(runtime("webhook", fits)).runtime().endpoint()).hasSize(2048);
    assertOutcome(() -> register(runtime("webhook", fits + "a")), "agent.endpoint.max-bytes");
  }

  @Test
  void rejectsUnknownRuntimeKinds() {
    assertOutcome(() -> register(runtime("grpc", null)), "invalid-runtime-kind");
    assertOutcome(() -> register(runtime(null, null)), "invalid-runtime-kind");
  }

  @Test
  void toolGroupsAreUniqueKebabCaseNamesAndAtMostSixteen() {
    List<String> sixteen = IntStream.range(0, 16).mapToObj(i -> "group-" + i).toList();
    assertThat(register(new AgentDraft("W", "", "pull", null, sixteen)).toolGroups()).hasSize(16);
    List<String> seventeen = IntStream.range(0, 17).mapToObj(i -> "group-" + i).toList();
    assertOutcome(
        () -> register(new AgentDraft("W", "", "pull", null, seventeen)), "agent.max-tool-groups");
    assertOutcome(
        () -> register(new AgentDraft("W", "", "pull", null, List.of("Board"))),
        "invalid-tool-group");
    assertOutcome(
        () -> register(new AgentDraft("W", "", "pull", null, List.of("board", "board"))),
        "duplicate-tool-group");
  }

  @ParameterizedTest
  @ValueSource(strings = {"agent-a", "A1", "writer.v2", "team_bot", "0"})
  void acceptsAgentIdsOfLettersDigitsDotsDashesAndUnderscores(String id) {
    assertThat(AgentId.isValid(id)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-agent", ".agent", "agent a", "agent/1", "ägent"})
  void rejectsOtherAgentIds(String id) {
    assertOutcome(() -> new AgentId(id), "invalid-agent-id");
  }

  @Test
  void anAgentIdIsAtMostSixtyFourCharacters() {
    assertThat(AgentId.isValid("a".repeat(64))).isTrue();
    assertThat(AgentId.isValid("a".repeat(65))).isFalse();
  }

  @Test
  void replacingAnAgentKeepsItsIdAndCreationAndCountsARevision() {
    Agent agent = register(draft("Writer", "writes"));
    Agent replaced =
        agent.replace(runtime("webhook", "https://agents.example"), LIMITS, NOW.plusSeconds(60));

    assertThat(replaced.id()).isEqualTo(agent.id());
    assertThat(replaced.revision()).isEqualTo(2);
    assertThat(replaced.createdAt()).isEqualTo(NOW);
    assertThat(replaced.updatedAt()).isEqualTo(NOW.plusSeconds(60));
    assertThat(replaced.runtime().kind()).isEqualTo(RuntimeKind.WEBHOOK);
    assertThat(replaced.toolGroups()).isEmpty();
  }
}
