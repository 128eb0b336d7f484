package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.view.ActivityItem;
import io.agentteams.gateway.console.view.Board;
import io.agentteams.gateway.console.view.Chain;
import io.agentteams.gateway.console.view.RosterRow;
import io.agentteams.gateway.console.view.Spend;
import io.agentteams.gateway.console.view.Workers;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** {@code GET /console/teams/{teamId}}: the team page, rendered whole and then kept live. */
@Controller
public class TeamPageController {

  /** Messages per history page. */
  static final int HISTORY_PAGE = 20;

  /** Activity entries the page shows at first; older ones come a page at a time. */
  static final int FEED_PAGE = 50;

  private final Reads reads;
  private final TeamEventFeed feed;

  public TeamPageController(Reads reads, TeamEventFeed feed) {
    this.reads = reads;
    this.feed = feed;
  }

  @GetMapping("/console/teams/{teamId}")
  public Mono<String> page(
      @PathVariable UUID teamId, Principal principal, Model model, ServerWebExchange exchange) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    // Taken before the reads: the stream resumes here, so nothing between the reads and the
    // stream's start is missed.
    String after = feed.position(teamId.toString()).toString();
    return reads
        .team(owner, teamId)
        .flatMap(
            team ->
                Mono.zip(
                        Reads.orEmptyWhileUnknown(reads.activity(owner, teamId), List.of()),
                        Reads.orEmptyWhileUnknown(reads.tasks(owner, teamId), List.of()),
                        reads.state(owner, teamId),
                        Reads.orEmptyWhileUnknown(
                            reads.history(owner, teamId, null, null, null, null, HISTORY_PAGE),
                            new Reads.HistoryPage(List.of(), null, false)),
                        workers(reads, owner),
                        spend(reads, owner, teamId))
                    .map(
                        parts -> {
                          List<ActivityItem> activity = parts.getT1();
                          model.addAttribute("team", team);
                          model.addAttribute("teamId", team.id());
                          model.addAttribute(
                              "roster",
                              RosterRow.of(
                                  team,
                                  ActivityItem.jobsOf(activity),
                                  parts.getT2(),
                                  parts.getT5()));
                          model.addAttribute(
                              "activity",
                              activity.subList(0, Math.min(FEED_PAGE, activity.size())));
                          model.addAttribute(
                              "olderBefore",
                              activity.size() > FEED_PAGE
                                  ? activity.get(FEED_PAGE - 1).request().id()
                                  : null);
                          model.addAttribute(
                              "chains", Chain.of(ActivityItem.jobsOf(activity), FEED_PAGE));
                          model.addAttribute("board", Board.of(parts.getT2()));
                          model.addAttribute("state", parts.getT3());
                          model.addAttribute("stateDraft", StateDraft.empty());
                          model.addAttribute("stateProblems", Map.of());
                          model.addAttribute("stateError", null);
                          model.addAttribute("stateMessage", null);
                          model.addAttribute("history", parts.getT4());
                          model.addAttribute("historyFiltered", false);
                          model.addAttribute("liveAfter", after);
                          model.addAttribute("spend", parts.getT6().orElse(null));
                          return "team";
                        }))
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              exchange
                  .getResponse()
                  .setStatusCode(
                      e.result().status() == 404
                          ? HttpStatus.NOT_FOUND
                          : HttpStatus.SERVICE_UNAVAILABLE);
              model.addAttribute(
                  "message",
                  e.result().status() == 404
                      ? "There is no such team among yours."
                      : e.result().message());
              return Mono.just("problem");
            });
  }

  /** The team's spend, empty while the scheduler cannot say. */
  static Mono<Optional<Spend>> spend(Reads reads, Caller.Owner owner, UUID teamId) {
    return reads
        .spend(owner, teamId)
        .map(Optional::of)
        .onErrorResume(e -> Mono.just(Optional.empty()));
  }

  /** Which pull agents of the owner have a worker connected now (unknown while none can say). */
  static Mono<Workers> workers(Reads reads, Caller.Owner owner) {
    return reads
        .workers(owner)
        .map(connected -> new Workers(connected, true))
        .onErrorResume(e -> Mono.just(Workers.unknown()));
  }
}
