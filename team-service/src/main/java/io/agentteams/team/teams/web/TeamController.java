package io.agentteams.team.teams.web;

import io.agentteams.contracts.team.TeamStatus;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.identity.Caller;
import io.agentteams.team.teams.application.TeamCommands;
import io.agentteams.team.teams.domain.Member;
import io.agentteams.team.teams.domain.NewMember;
import io.agentteams.team.teams.domain.Team;
import io.agentteams.team.text.domain.StoredText;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/teams}: an owner creates, lists, reads, reconnects and deletes teams; members read
 * their own team; the scheduler reports a team disconnected.
 */
@RestController
@RequestMapping("/api/v1/teams")
public class TeamController {

  private static final TextBound REASON = new TextBound("team.disconnect-reason", 500, 1000);

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

  @DeleteMapping("/{teamId}")
  public Mono<ResponseEntity<Void>> delete(Caller.Owner owner, @PathVariable UUID teamId) {
    return teams.delete(owner, teamId).then(Mono.just(ResponseEntity.noContent().<Void>build()));
  }

  /** 202 while the reconnect is under way, 200 when the team is ready. */
  @PostMapping("/{teamId}/reconnect")
  public Mono<ResponseEntity<TeamView>> reconnect(Caller.Owner owner, @PathVariable UUID teamId) {
    return teams
        .reconnect(owner, teamId)
        .map(
            team ->
                ResponseEntity.status(
                        team.status() == TeamStatus.READY ? HttpStatus.OK : HttpStatus.ACCEPTED)
                    .body(TeamView.of(team)));
  }

  /**
   * Internal: the scheduler reports that a dispatch target revoked access or failed ambiguously.
   */
  @PostMapping("/{teamId}/disconnect")
  public Mono<TeamView> disconnect(
      Caller.Service service,
      @PathVariable UUID teamId,
      @RequestBody @Nullable DisconnectRequest request) {
    return Mono.fromCallable(
            () -> StoredText.checkNotBlank(REASON, request == null ? null : request.reason()))
        .flatMap(reason -> teams.disconnect(service, teamId, reason))
        .map(TeamView::of);
  }

  /** The body of a create request. */
  public record CreateTeamRequest(
      @Nullable String name, @Nullable String goal, @Nullable List<MemberRequest> members) {}

  /** One requested member. */
  public record MemberRequest(
      @Nullable String name, @Nullable String agentId, @Nullable Boolean lead) {}

  /** Why a team is disconnected. */
  public record DisconnectRequest(@Nullable String reason) {}

  /** A team as the API shows it. */
  public record TeamView(
      UUID id,
      String ownerId,
      String name,
      String goal,
      String status,
      @Nullable String statusReason,
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
          team.statusReason(),
          team.revision(),
          team.createdAt(),
          team.members().stream().map(MemberView::of).toList());
    }
  }

  /** A member, its recorded binding and where its conversation is, as the API shows it. */
  public record MemberView(
      String name,
      String agentId,
      boolean lead,
      String conversationId,
      String runtimeKind,
      @Nullable String endpoint,
      String provisioning) {

    static MemberView of(Member member) {
      return new MemberView(
          member.name().value(),
          member.agentId(),
          member.lead(),
          member.conversationId(),
          member.runtime().kind().wire(),
          member.runtime().endpoint(),
          member.status().wire());
    }
  }
}
