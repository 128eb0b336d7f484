package io.agentteams.sdk.agents;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.ConflictException;
import io.agentteams.sdk.problem.NotFoundException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** {@code /api/v1/agents}: the owner's agent catalog. */
public final class Agents {

  private final HttpTransport http;

  public Agents(HttpTransport http) {
    this.http = http;
  }

  /**
   * Registers an agent.
   *
   * @throws ConflictException when the owner already has an agent with that id
   */
  public Agent register(AgentDraft draft) {
    Objects.requireNonNull(draft.id(), "an agent to register needs an id");
    return Objects.requireNonNull(
        http.call("POST", ApiPath.of("/api/v1/agents"), draft, Agent.class));
  }

  /**
   * Replaces an agent's name, description, runtime and tool groups.
   *
   * @throws NotFoundException when the owner has no agent with that id
   */
  public Agent replace(String agentId, AgentDraft draft) {
    return Objects.requireNonNull(
        http.call("PUT", ApiPath.of("/api/v1/agents/{}", agentId), draft, Agent.class));
  }

  /**
   * Registers the agent, or replaces it when the owner already has one with that id: safe to run
   * any number of times.
   */
  public Agent ensure(AgentDraft draft) {
    try {
      return register(draft);
    } catch (ConflictException e) {
      return replace(Objects.requireNonNull(draft.id()), draft);
    }
  }

  /**
   * One of the owner's agents.
   *
   * @throws NotFoundException when there is none with that id
   */
  public Agent get(String agentId) {
    return Objects.requireNonNull(
        http.call("GET", ApiPath.of("/api/v1/agents/{}", agentId), null, Agent.class));
  }

  /**
   * The owner's agents whose name or description contains {@code query} (literally, ignoring case),
   * a page at a time.
   *
   * @param query null for every agent
   * @param limit page size, null for the default
   * @param cursor the previous page's {@code next_cursor}, null for the first page
   */
  public AgentPage search(
      @Nullable String query, @Nullable Integer limit, @Nullable String cursor) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/agents")
                .query("q", query)
                .query("limit", limit)
                .query("cursor", cursor),
            null,
            AgentPage.class));
  }
}
