package io.agentteams.gateway.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class ToolCatalogTest {

  /** DESIGN.md section 3, ui-gateway: the member tools. */
  private static final List<String> DESIGNED =
      List.of(
          "send_member",
          "read_team_context",
          "publish_team_state",
          "read_team_state",
          "update_team_state",
          "read_team_history",
          "search_team_results",
          "read_team_result",
          "send_message",
          "broadcast",
          "read_messages",
          "list_tasks",
          "create_task",
          "claim_task",
          "release_task",
          "reassign_task",
          "heartbeat_task",
          "complete_task",
          "fail_task",
          "wait");

  private final JsonMapper mapper = JsonMapper.builder().build();
  private final ToolCatalog catalog = new ToolCatalog(mapper);
  private final SchemaRegistry registry =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private final Schema metaSchema = registry.getSchema(mapper.readTree(metaSchemaRef()));

  private static String metaSchemaRef() {
    return "{\"$ref\": \"" + ToolCatalog.DIALECT + "\"}";
  }

  @Test
  void listsExactlyTheDesignedMemberTools() {
    assertThat(catalog.all())
        .extracting(ToolCatalog.Tool::name)
        .containsExactlyElementsOf(DESIGNED);
  }

  @Test
  void everySchemaIsAStandaloneJsonSchema202012Document() {
    for (ToolCatalog.Tool tool : catalog.all()) {
      for (JsonNode schema : List.of(tool.inputSchema(), tool.resultSchema())) {
        assertThat(schema.path("$schema").asString()).isEqualTo(ToolCatalog.DIALECT);
        assertThat(metaSchema.validate(schema)).as(tool.name()).isEmpty();
        // Compiles on its own: every reference resolves inside the document.
        Schema compiled = registry.getSchema(schema);
        compiled.initializeValidators();
      }
    }
  }

  @Test
  void everyPathPlaceholderIsARequiredInputAndInputsRefuseUnknownProperties() {
    Pattern placeholder = Pattern.compile("\\{([a-z_]+)}");
    for (ToolCatalog.Tool tool : catalog.all()) {
      List<String> required = new ArrayList<>();
      tool.inputSchema().path("required").forEach(r -> required.add(r.asString()));
      Matcher matcher = placeholder.matcher(tool.path());
      while (matcher.find()) {
        assertThat(required).as(tool.name()).contains(matcher.group(1));
        assertThat(tool.inputSchema().path("properties").has(matcher.group(1))).isTrue();
      }
      assertThat(tool.path()).as(tool.name()).startsWith("/api/v1/teams/{team_id}/");
      assertThat(tool.inputSchema().path("additionalProperties").asBoolean(true)).isFalse();
    }
  }

  @Test
  void aResultMissingARequiredFieldOrOfTheWrongTypeFailsItsSchema() {
    Schema claim = registry.getSchema(catalog.find("claim_task").orElseThrow().resultSchema());
    JsonNode good =
        mapper.readTree(
            """
            {"task": {"id": 3, "title": "t", "status": "in_progress", "owner": "writer",
                      "dependencies": [1], "write_scopes": ["src/"], "revision": 4,
                      "deleted": false},
             "warnings": [], "effects": []}
            """);
    assertThat(claim.validate(good)).isEmpty();
    JsonNode missingTask = mapper.readTree("{\"warnings\": [], \"effects\": []}");
    assertThat(claim.validate(missingTask)).isNotEmpty();
    JsonNode wrongStatus =
        mapper.readTree(good.toString().replace("\"in_progress\"", "\"done-ish\""));
    assertThat(claim.validate(wrongStatus)).isNotEmpty();
    JsonNode wrongType =
        mapper.readTree(good.toString().replace("\"revision\":4", "\"revision\":\"4\""));
    assertThat(claim.validate(wrongType)).isNotEmpty();
  }

  @Test
  void anInvocationFillsThePathAndPutsTheRestInTheQueryOfAGetOrTheBodyOtherwise() {
    ToolCatalog.Tool history = catalog.find("read_team_history").orElseThrow();
    ToolCatalog.Invocation read =
        history.invocation(
            (ObjectNode)
                mapper.readTree("{\"team_id\": \"t 1\", \"query\": \"a&b\", \"limit\": 5}"));
    assertThat(read.method()).isEqualTo(HttpMethod.GET);
    assertThat(read.target()).isEqualTo("/api/v1/teams/t+1/history?query=a%26b&limit=5");
    assertThat(read.body()).isNull();

    ToolCatalog.Tool claim = catalog.find("claim_task").orElseThrow();
    ToolCatalog.Invocation post =
        claim.invocation(
            (ObjectNode)
                mapper.readTree("{\"team_id\": \"t\", \"task_id\": 7, \"expected_revision\": 2}"));
    assertThat(post.target()).isEqualTo("/api/v1/teams/t/tasks/7/claim");
    assertThat(post.body()).isEqualTo(mapper.readTree("{\"expected_revision\": 2}"));

    assertThatThrownBy(() -> claim.invocation((ObjectNode) mapper.readTree("{\"team_id\": \"t\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task_id");
  }
}
