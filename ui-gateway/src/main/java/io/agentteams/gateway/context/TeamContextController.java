package io.agentteams.gateway.context;

import io.agentteams.gateway.access.GatewayPolicies;
import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.gateway.routing.InternalCalls;
import io.agentteams.gateway.routing.ServiceEndpoints;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.Fails;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/v1/teams/{teamId}/context} ({@code read_team_context}): the goal, the roster, the
 * active public state and the newest messages, composed from team-service and mailbox-service
 * within one byte budget. The owner and the team's members may read it; everyone else learns
 * nothing (404).
 */
@RestController
public class TeamContextController {

  private static final Set<String> MEMBER_FIELDS = Set.of("name", "agent_id", "lead");
  private static final Set<String> ENTRY_FIELDS =
      Set.of("id", "kind", "title", "content", "status", "created_by", "updated_at", "revision");
  private static final Set<String> MESSAGE_FIELDS =
      Set.of(
          "message_id",
          "sent_at",
          "kind",
          "sender",
          "system_kind",
          "recipients",
          "job_id",
          "text",
          "truncated");

  private final TeamAccess access;
  private final TeamDirectory directory;
  private final InternalCalls calls;
  private final ServiceEndpoints services;
  private final TeamContextProperties properties;
  private final ContextBudget budget;
  private final JsonMapper mapper;

  public TeamContextController(
      TeamAccess access,
      TeamDirectory directory,
      InternalCalls calls,
      ServiceEndpoints services,
      TeamContextProperties properties,
      JsonMapper mapper) {
    this.access = access;
    this.directory = directory;
    this.calls = calls;
    this.services = services;
    this.properties = properties;
    this.mapper = mapper;
    this.budget = new ContextBudget(mapper, properties.maxBytes());
  }

  @GetMapping(value = "/api/v1/teams/{teamId}/context", produces = MediaType.APPLICATION_JSON_VALUE)
  @Fails({ProblemException.Kind.NOT_FOUND, ProblemException.Kind.FORBIDDEN})
  public Mono<JsonNode> context(Caller caller, @PathVariable UUID teamId) {
    // The team read checks visibility first, so nothing else is asked for a team the caller
    // may not see.
    return access
        .screened(caller, teamId, GatewayPolicies.MEMBERS_AND_OWNER)
        .then(directory.team(caller, teamId))
        .flatMap(
            team ->
                Mono.zip(
                        directory.state(caller, teamId),
                        calls.get(
                            caller,
                            services.mailbox(),
                            "/api/internal/v1/teams/{id}/recent-messages",
                            "team",
                            teamId,
                            teamId))
                    .map(parts -> compose(caller, team, parts.getT1(), parts.getT2())));
  }

  private JsonNode compose(Caller caller, JsonNode team, JsonNode state, JsonNode recent) {
    ObjectNode context = mapper.createObjectNode();
    context.put("team_id", team.path("id").asString());
    context.put("name", team.path("name").asString());
    context.put("goal", team.path("goal").asString());
    context.put("status", team.path("status").asString());
    if (caller instanceof Caller.Member member) {
      context.put("you", member.member());
    }
    ArrayNode members = context.putArray("members");
    team.path("members").forEach(m -> members.add(pick(m, MEMBER_FIELDS)));
    context.put("state_revision", state.path("state_revision").asLong());
    ArrayNode entries = context.putArray("state");
    state.path("entries").forEach(e -> entries.add(pick(e, ENTRY_FIELDS)));
    List<JsonNode> newestFirst = new ArrayList<>();
    for (JsonNode message : recent.path("messages")) {
      if (newestFirst.size() == properties.maxMessages()) {
        break;
      }
      newestFirst.add(pick(message, MESSAGE_FIELDS));
    }
    // Messages the mailbox left out of its own response are among the newest the context covers.
    int omittedByMailbox =
        Math.min(recent.path("omitted").asInt(0), properties.maxMessages() - newestFirst.size());
    return budget.fit(context, newestFirst, Math.max(0, omittedByMailbox));
  }

  /** The named fields that are present and not null: compact JSON for a model's context. */
  private ObjectNode pick(JsonNode source, Set<String> fields) {
    ObjectNode picked = mapper.createObjectNode();
    source
        .properties()
        .forEach(
            field -> {
              if (fields.contains(field.getKey()) && !field.getValue().isNull()) {
                picked.set(field.getKey(), field.getValue());
              }
            });
    return picked;
  }
}
