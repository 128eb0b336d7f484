package io.agentteams.gateway.console.team;

import io.agentteams.gateway.console.ConsoleForm;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.StatusFragment;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.platform.identity.Caller;
import java.security.Principal;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What the team page reads back in pages: older activity past the feed's first page, and the team's
 * history searched by member, job and text.
 */
@Controller
public class TeamHistoryController {

  private final Reads reads;

  public TeamHistoryController(Reads reads) {
    this.reads = reads;
  }

  /** The next page of the activity feed, older than {@code before}. */
  @GetMapping("/console/teams/{teamId}/activity")
  public Mono<String> olderActivity(
      @PathVariable UUID teamId,
      @RequestParam UUID before,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    int page = TeamPageController.FEED_PAGE;
    return reads
        .activity(owner, teamId, before, page + 1)
        .map(
            items -> {
              model.addAttribute("teamId", teamId);
              model.addAttribute("activity", items.subList(0, Math.min(page, items.size())));
              model.addAttribute(
                  "olderBefore", items.size() > page ? items.get(page - 1).request().id() : null);
              return "fragments/activity :: page";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e ->
                StatusFragment.of(
                    exchange, model, e.result().problemStatus(), null, e.result().message()));
  }

  /** A page of the team's history with the chosen filters; {@code cursor} asks for older ones. */
  @GetMapping("/console/teams/{teamId}/history")
  public Mono<String> history(
      @PathVariable UUID teamId,
      @RequestParam(required = false) @Nullable String member,
      @RequestParam(required = false) @Nullable String job,
      @RequestParam(required = false) @Nullable String q,
      @RequestParam(required = false) @Nullable String cursor,
      Principal principal,
      ServerWebExchange exchange,
      Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    String memberFilter = ConsoleForm.blankToNull(member);
    String jobFilter = ConsoleForm.blankToNull(job);
    String query = ConsoleForm.blankToNull(q);
    return reads
        .history(
            owner,
            teamId,
            memberFilter,
            jobFilter,
            query,
            ConsoleForm.blankToNull(cursor),
            TeamPageController.HISTORY_PAGE)
        .map(
            page -> {
              model.addAttribute("teamId", teamId);
              model.addAttribute("history", page);
              model.addAttribute("member", memberFilter);
              model.addAttribute("job", jobFilter);
              model.addAttribute("q", query);
              model.addAttribute(
                  "historyFiltered", memberFilter != null || jobFilter != null || query != null);
              return cursor == null || cursor.isBlank()
                  ? "fragments/history :: results"
                  : "fragments/history :: more";
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e ->
                StatusFragment.of(
                    exchange, model, e.result().problemStatus(), null, e.result().message()));
  }
}
