package io.agentteams.team.agents.domain;

import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.problem.LimitExceededException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The named refusals of the agent catalog. */
public final class AgentProblems {

  private AgentProblems() {}

  public static DomainFailure invalidAgentId(@Nullable String value) {
    return DomainFailure.invalid(
        "invalid-agent-id",
        "agent id '"
            + value
            + "' must start with a letter or digit and hold at most "
            + AgentId.MAX_LENGTH
            + " letters, digits, '.', '-' or '_'",
        Map.of("agent_id", String.valueOf(value)));
  }

  /** The agent is not in the owner's catalog (or belongs to another owner). */
  public static DomainFailure agentNotFound(String id) {
    return DomainFailure.notFound("agent", id);
  }

  /** The agent is a member of teams that are not deleted: it stays until they are. */
  public static DomainFailure agentInLiveTeams(AgentId id, List<UUID> teams) {
    return DomainFailure.conflict(
        "agent-in-live-team",
        "agent '"
            + id
            + "' is a member of "
            + teams.size()
            + (teams.size() == 1 ? " team" : " teams or more")
            + " that is not deleted; delete those teams (or replace the member) first",
        Map.of("agent_id", id.value(), "team_ids", teams.stream().map(UUID::toString).toList()));
  }

  public static DomainFailure agentExists(AgentId id) {
    return DomainFailure.conflict(
        "agent-exists", "agent '" + id + "' is already registered", Map.of("agent_id", id.value()));
  }

  /** Only a webhook agent has a signing secret to rotate. */
  public static DomainFailure notAWebhookAgent(AgentId id, RuntimeKind kind) {
    return DomainFailure.conflict(
        "not-a-webhook-agent",
        "agent '" + id + "' runs as " + kind.wire() + "; only webhook agents have a signing secret",
        Map.of("agent_id", id.value(), "runtime_kind", kind.wire()));
  }

  /** The owner's catalog holds as many agents as it may. */
  public static LimitExceededException tooManyAgents(int max, long actual) {
    return new LimitExceededException("agent.max-agents-per-owner", "agents", max, actual);
  }

  public static LimitExceededException tooManyToolGroups(int max, int actual) {
    return new LimitExceededException("agent.max-tool-groups", "tool groups", max, actual);
  }

  public static DomainFailure invalidToolGroup(@Nullable String group, int maxLength) {
    return DomainFailure.invalid(
        "invalid-tool-group",
        "tool group '"
            + group
            + "' must be lowercase kebab-case of at most "
            + maxLength
            + " characters",
        Map.of("tool_group", String.valueOf(group)));
  }

  public static DomainFailure duplicateToolGroup(String group) {
    return DomainFailure.invalid(
        "duplicate-tool-group",
        "tool group '" + group + "' is listed twice",
        Map.of("tool_group", group));
  }

  public static DomainFailure invalidRuntimeKind(@Nullable String value) {
    return DomainFailure.invalid(
        "invalid-runtime-kind",
        "runtime kind '" + value + "' must be one of pull, webhook, a2a",
        Map.of("runtime_kind", String.valueOf(value)));
  }

  /** A pull agent's worker comes to us; it names no endpoint. */
  public static DomainFailure unexpectedEndpoint() {
    return DomainFailure.invalid(
        "unexpected-endpoint", "a pull agent has no endpoint: its worker pulls jobs");
  }

  public static DomainFailure missingEndpoint(RuntimeKind kind) {
    return DomainFailure.invalid(
        "missing-endpoint", "a " + kind.wire() + " agent needs an endpoint URL");
  }

  public static LimitExceededException endpointTooLong(int maxBytes, int bytes) {
    return new LimitExceededException("agent.endpoint.max-bytes", "bytes", maxBytes, bytes);
  }

  public static DomainFailure invalidEndpoint(String endpoint, String why) {
    return DomainFailure.invalid(
        "invalid-endpoint",
        "endpoint '" + endpoint + "' is not usable: " + why,
        Map.of("endpoint", endpoint));
  }

  /** A page size outside what a catalog search returns. */
  public static DomainFailure invalidLimit(int max) {
    return DomainFailure.invalid(
        "invalid-limit", "limit must be between 1 and " + max, Map.of("min", 1, "max", max));
  }

  public static DomainFailure invalidCursor() {
    return DomainFailure.invalid("invalid-cursor", "the cursor is not one this API issued");
  }

  /** The catalog could not be read; a retry may succeed. */
  public static DomainFailure catalogUnavailable() {
    return new DomainFailure(
        DomainFailure.Kind.UNAVAILABLE,
        "agent-catalog-unavailable",
        "the agent catalog could not be read; try again",
        Map.of());
  }
}
