package io.agentteams.team.agents.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.contracts.agent.AgentRuntimeChanged;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.identity.SecretKeys;
import io.agentteams.platform.secrets.SecretOpener;
import io.agentteams.platform.testidentity.TestIdentity;
import io.agentteams.team.TeamServiceTest;
import io.agentteams.team.support.EventTape;
import io.agentteams.team.support.TeamApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;

@TeamServiceTest
class AgentApiIntegrationTest {

  @Autowired WebTestClient web;
  @Autowired CallerTokens tokens;
  TeamApi api;
  String owner;

  @BeforeEach
  void setUp() {
    api = new TeamApi(web, tokens);
    owner = TeamApi.newOwner("catalog");
  }

  @Test
  void anAgentOfALiveTeamIsNotDeletedUntilTheTeamIs() {
    String agent = TeamApi.newAgentId("busy");
    api.registerAgent(owner, agent);
    String spare = TeamApi.newAgentId("spare");
    api.registerAgent(owner, spare);
    UUID team = api.createTeam(owner, java.util.Map.of("lead", agent, "helper", spare));

    web.delete()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("agent-in-live-team")
        .jsonPath("$.team_ids[0]")
        .isEqualTo(team.toString())
        .jsonPath("$.detail")
        .value(detail -> assertThat((String) detail).contains(agent).contains("delete"));
    // Another owner learns nothing: not found, and the agent stays.
    web.delete()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(TeamApi.newOwner("mallory")))
        .exchange()
        .expectStatus()
        .isNotFound();
    web.get()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isOk();

    web.delete()
        .uri("/api/v1/teams/{id}", team)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
    web.delete()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNoContent();
    web.get()
        .uri("/api/v1/agents/{id}", agent)
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNotFound();
  }

  @Test
  void registersReadsAndReplacesAnAgent() {
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", api.owner(owner))
        .bodyValue(
            Map.of(
                "id", "researcher",
                "name", "Researcher",
                "description", "Finds and cites sources",
                "runtime", Map.of("kind", "webhook", "endpoint", "https://agents.example/research"),
                "tool_groups", List.of("mailbox", "board")))
        .exchange()
        .expectStatus()
        .isCreated()
        .expectHeader()
        .location("/api/v1/agents/researcher")
        .expectBody()
        .jsonPath("$.runtime.kind")
        .isEqualTo("webhook")
        .jsonPath("$.tool_groups[1]")
        .isEqualTo("board")
        .jsonPath("$.revision")
        .isEqualTo(1);

    web.put()
        .uri("/api/v1/agents/researcher")
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("name", "Senior researcher", "description", "Finds sources"))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.revision")
        .isEqualTo(2)
        .jsonPath("$.runtime.kind")
        .isEqualTo("pull");

    get("researcher")
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.name")
        .isEqualTo("Senior researcher");
  }

  @Test
  void generatesAnIdWhenNoneIsGivenAndRefusesATakenOne() {
    String id =
        (String)
            web.post()
                .uri("/api/v1/agents")
                .header("Authorization", api.owner(owner))
                .bodyValue(Map.of("name", "Anonymous"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("id");
    assertThat(id).isNotBlank();

    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("id", id, "name", "Again"))
        .exchange()
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("agent-exists");
  }

  @Test
  void searchesByNameOrDescriptionLiterallyIgnoringCaseInPages() {
    for (int i = 0; i < 7; i++) {
      register("writer-" + i, "Writer " + i, "Drafts chapters");
    }
    register("critic", "Critic", "Reviews the WRITER's drafts");
    register("tram", "Straßenbahn", "Rides trams");
    register("other", "Other", "Unrelated 100% (literal)");

    assertThat(ids(search("writer", 20, null))).hasSize(8).contains("critic");
    assertThat(ids(search("STRASSE", null, null))).isEmpty();
    assertThat(ids(search("STRAẞEN", null, null)))
        .as("capital sharp s folds")
        .containsExactly("tram");
    assertThat(ids(search("straßen", null, null))).containsExactly("tram");
    assertThat(ids(search("100% (", null, null))).containsExactly("other");
    assertThat(ids(search("_", null, null))).isEmpty();

    List<String> paged = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Map<?, ?> page = search("writer", 3, cursor);
      paged.addAll(ids(page));
      cursor = (String) page.get("next_cursor");
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    assertThat(paged)
        .containsExactlyElementsOf(ids(search("writer", 20, null)))
        .doesNotHaveDuplicates();

    web.get()
        .uri("/api/v1/agents?limit=101")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isBadRequest();
    web.get()
        .uri("/api/v1/agents?cursor=not-a-cursor")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isBadRequest();
  }

  @Test
  void rejectsAgentsBeyondTheLimitsWithProblemsNamingThem() {
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("id", "long", "name", "😀".repeat(41)))
        .exchange()
        .expectStatus()
        .isEqualTo(422)
        .expectBody()
        .jsonPath("$.limit")
        .isEqualTo("agent.name.max-bytes");
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("id", "hook", "name", "Hook", "runtime", Map.of("kind", "webhook")))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("missing-endpoint");
    get("long").expectStatus().isNotFound();
    get("hook").expectStatus().isNotFound();
  }

  @Test
  void aWebhookAgentsSecretIsShownOnceRotatesWithAnOverlapAndReachesTheScheduler() {
    Map<?, ?> registered =
        web.post()
            .uri("/api/v1/agents")
            .header("Authorization", api.owner(owner))
            .bodyValue(
                Map.of(
                    "id",
                    "hook",
                    "name",
                    "Hook",
                    "runtime",
                    Map.of("kind", "webhook", "endpoint", "https://agents.example/hook")))
            .exchange()
            .expectStatus()
            .isCreated()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    String first = (String) registered.get("webhook_secret");
    assertThat(first).startsWith("whsec_");
    assertThat(java.util.Base64.getDecoder().decode(first.substring(6))).hasSize(32);
    get("hook").expectBody().jsonPath("$.webhook_secret").doesNotExist();

    Map<?, ?> rotated =
        web.post()
            .uri("/api/v1/agents/hook/webhook-secret")
            .header("Authorization", api.owner(owner))
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(Map.class)
            .returnResult()
            .getResponseBody();
    String second = (String) rotated.get("webhook_secret");
    assertThat(second).startsWith("whsec_").isNotEqualTo(first);
    assertThat(java.time.Instant.parse((String) rotated.get("previous_valid_until")))
        .isAfter(java.time.Instant.now().plus(java.time.Duration.ofHours(23)));

    // The scheduler learns both secrets, in order, from the agent runtimes topic alone: sealed for
    // its key, bound to this owner's agent.
    EventTape tape = EventTape.agentRuntimes();
    List<EventEnvelope> events =
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(30))
            .until(() -> tape.of(AgentRuntimeChanged.key(owner, "hook")), e -> e.size() == 2);
    AgentRuntimeChanged last = tape.codec().data(events.get(1), AgentRuntimeChanged.class);
    Map<String, Object> opened =
        new SecretOpener(SecretKeys.unsealing(TestIdentity.unsealingKeys(), "scheduler"))
            .open(
                last.sealedWebhookSecrets(),
                Map.of(
                    AgentRuntimeChanged.OWNER_HEADER,
                    owner,
                    AgentRuntimeChanged.AGENT_HEADER,
                    "hook"));
    assertThat(opened)
        .containsEntry(AgentRuntimeChanged.CURRENT, second)
        .containsEntry(AgentRuntimeChanged.PREVIOUS, first);
    assertThat(last.version()).isEqualTo(2);
    assertThat(EventTape.teamEvents().of(AgentRuntimeChanged.key(owner, "hook"))).isEmpty();

    register("plain", "Plain", "");
    web.post()
        .uri("/api/v1/agents/plain/webhook-secret")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isEqualTo(409)
        .expectBody()
        .jsonPath("$.code")
        .isEqualTo("not-a-webhook-agent");

    // Deleting the agent is published too, without endpoint or secrets, so the scheduler drops
    // them.
    web.delete()
        .uri("/api/v1/agents/hook")
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isNoContent();
    List<EventEnvelope> withDeletion =
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(30))
            .until(() -> tape.of(AgentRuntimeChanged.key(owner, "hook")), e -> e.size() == 3);
    AgentRuntimeChanged deletion =
        tape.codec().data(withDeletion.get(2), AgentRuntimeChanged.class);
    assertThat(deletion.deleted()).isTrue();
    assertThat(deletion.version()).isEqualTo(3);
    assertThat(deletion.endpoint()).isNull();
    assertThat(deletion.sealedWebhookSecrets()).isNull();
  }

  @Test
  void refusesAnEndpointOnAPrivateLoopbackOrMetadataAddressWithTheReason() {
    Map<String, String> refused =
        Map.of(
            "http://169.254.169.254/latest/meta-data", "link-local and cloud metadata",
            "https://10.0.0.8/hook", "private (10.0.0.0/8)",
            "http://127.0.0.1:9000/a2a", "loopback",
            "http://[::ffff:10.0.0.8]/hook", "IPv4-mapped",
            "http://2130706433/hook", "ambiguous numeric host",
            "http://metadata.google.internal/computeMetadata", "metadata service");
    refused.forEach(
        (endpoint, reason) ->
            web.post()
                .uri("/api/v1/agents")
                .header("Authorization", api.owner(owner))
                .bodyValue(
                    Map.of(
                        "id", "private",
                        "name", "Private",
                        "runtime", Map.of("kind", "a2a", "endpoint", endpoint)))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid-endpoint")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains(endpoint).contains(reason)));
    register("private", "Private", "");
    web.put()
        .uri("/api/v1/agents/private")
        .header("Authorization", api.owner(owner))
        .bodyValue(
            Map.of(
                "name",
                "Private",
                "runtime",
                Map.of("kind", "webhook", "endpoint", "http://192.168.1.20/hook")))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.detail")
        .value(detail -> assertThat((String) detail).contains("private (192.168.0.0/16)"));
    get("private").expectBody().jsonPath("$.runtime.kind").isEqualTo("pull");
  }

  @Test
  void onlyOwnersUseTheCatalog() {
    register("mine", "Mine", "");
    String member = api.member(owner, java.util.UUID.randomUUID(), "lead");
    web.get()
        .uri("/api/v1/agents")
        .header("Authorization", member)
        .exchange()
        .expectStatus()
        .isForbidden();
  }

  private void register(String id, String name, String description) {
    web.post()
        .uri("/api/v1/agents")
        .header("Authorization", api.owner(owner))
        .bodyValue(Map.of("id", id, "name", name, "description", description))
        .exchange()
        .expectStatus()
        .isCreated();
  }

  private WebTestClient.ResponseSpec get(String id) {
    return web.get()
        .uri("/api/v1/agents/{id}", id)
        .header("Authorization", api.owner(owner))
        .exchange();
  }

  private Map<?, ?> search(String query, @Nullable Integer limit, @Nullable String cursor) {
    return web.get()
        .uri(
            uri -> {
              uri.path("/api/v1/agents").queryParam("q", "{q}");
              if (limit != null) {
                uri.queryParam("limit", limit);
              }
              if (cursor != null) {
                uri.queryParam("cursor", cursor);
              }
              return uri.build(query);
            })
        .header("Authorization", api.owner(owner))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(Map.class)
        .returnResult()
        .getResponseBody();
  }

  private static List<String> ids(@Nullable Map<?, ?> page) {
    return ((List<?>) page.get("items"))
        .stream().map(i -> (String) ((Map<?, ?>) i).get("id")).toList();
  }
}
