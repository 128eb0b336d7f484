package io.agentteams.sdk.teams;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.NotFoundException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.type.TypeReference;

/** {@code /api/v1/teams}: the owner's teams. */
public final class Teams {

  private static final TypeReference<List<Team>> LIST = new TypeReference<>() {};

  private final HttpTransport http;

  public Teams(HttpTransport http) {
    this.http = http;
  }

  /** Forms a team; it is {@code provisioning} until every member's conversation is ensured. */
  public Team create(NewTeam team) {
    return Objects.requireNonNull(http.call("POST", ApiPath.of("/api/v1/teams"), team, Team.class));
  }

  /** The owner's teams. */
  public List<Team> list() {
    List<Team> teams = http.call("GET", ApiPath.of("/api/v1/teams"), null, LIST);
    return teams == null ? List.of() : teams;
  }

  /** The owner's team of that name, if there is one (names are not unique: the first). */
  public Optional<Team> findByName(String name) {
    return list().stream().filter(team -> team.name().equals(name)).findFirst();
  }

  /**
   * A team the caller may see (its owner, or one of its members).
   *
   * @throws NotFoundException otherwise
   */
  public Team get(UUID teamId) {
    return Objects.requireNonNull(
        http.call("GET", ApiPath.of("/api/v1/teams/{}", teamId), null, Team.class));
  }

  /** Deletes a team once it has no unfinished jobs. */
  public void delete(UUID teamId) {
    http.call("DELETE", ApiPath.of("/api/v1/teams/{}", teamId), null, Void.class);
  }

  /** Reconnects a disconnected team: missing conversations are recreated, runs reconciled. */
  public Team reconnect(UUID teamId) {
    return Objects.requireNonNull(
        http.call("POST", ApiPath.of("/api/v1/teams/{}/reconnect", teamId), null, Team.class));
  }

  /** The team's context, as its owner or the member whose token the client holds reads it. */
  public TeamContext context(UUID teamId) {
    return Objects.requireNonNull(
        http.call("GET", ApiPath.of("/api/v1/teams/{}/context", teamId), null, TeamContext.class));
  }
}
