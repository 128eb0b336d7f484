package io.agentteams.team.teams.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.team.teams.application.TeamCommands;
import io.agentteams.team.teams.domain.NewMember;
import io.agentteams.team.teams.domain.Team;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** {@code /api/v1/teams}: create, list and read an owner's teams. */
@RestController
@RequestMapping("/api/v1/teams")
public class TeamController {

  private final TeamCommands teams;

  public TeamController(TeamCommands teams) {
    this.teams = teams;
  }

  @PostMapping
  public Mono<ResponseEntity<TeamView>> create(
      Caller.Owner owner, @RequestBody CreateTeamRequest request) {
    List<NewMember> members =
        request.members() == null
            ? List.of()
            : request.members().stream()
                .map(m -> new NewMember(m.name(), m.agentId(), Boolean.TRUE.equals(m.lead())))
                .toList();
    return teams
        .create(owner, request.name(), request.goal(), members)
        .map(
            team ->
                ResponseEntity.created(URI.create("/api/v1/teams/" + team.id()))
                    .body(TeamView.of(team)));
  }

  @GetMapping
  public Flux<TeamView> list(Caller.Owner owner) {
    return teams.list(owner).map(TeamView::of);
  }

  @GetMapping("/{teamId}")
  public Mono<TeamView> get(Caller caller, @PathVariable UUID teamId) {
    return teams.find(caller, teamId).map(TeamView::of);
  }

  /** The body of a create request. */
  public record CreateTeamRequest(
      @Nullable String name, @Nullable String goal, @Nullable List<MemberRequest> members) {}

  /** One requested member. */
  public record MemberRequest(
      @Nullable String name, @Nullable String agentId, @Nullable Boolean lead) {}

  /** A team as the API shows it. */
  public record TeamView(
      UUID id,
      String ownerId,
      String name,
      String goal,
      String status,
      long revision,
      Instant createdAt,
      List<MemberView> members) {

    static TeamView of(Team team) {
      return new TeamView(
          team.id(),
          team.ownerId(),
          team.name(),
          team.goal(),
          team.status().wire(),
          team.revision(),
          team.createdAt(),
          team.members().stream()
              .map(m -> new MemberView(m.name().value(), m.agentId(), m.lead(), m.conversationId()))
              .toList());
    }
  }

  /** A member as the API shows it. */
  public record MemberView(String name, String agentId, boolean lead, String conversationId) {}
}
