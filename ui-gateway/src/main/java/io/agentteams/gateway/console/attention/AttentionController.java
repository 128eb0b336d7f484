package io.agentteams.gateway.console.attention;

import io.agentteams.contracts.Topics;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.session.SessionRecords;
import io.agentteams.gateway.console.view.Attention;
import io.agentteams.gateway.console.view.Team;
import io.agentteams.gateway.stream.FeedEvent;
import io.agentteams.gateway.stream.StreamProperties;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.StreamDrain;
import java.security.Principal;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /console/attention}: what needs the owner across their teams; {@code
 * /console/attention/live}: the counts every console page shows (the header's "Needs you", the tab
 * title, the teams list's per-team counts), pushed as server-sent events whenever a team's jobs or
 * tasks change. Each change rereads only the team it touched.
 */
@Controller
public class AttentionController {

  private final Reads reads;
  private final AttentionReads attention;
  private final TeamEventFeed feed;
  private final StreamProperties streams;
  private final StreamDrain drain;
  private final JsonMapper mapper;
  private final SessionRecords sessions;

  public AttentionController(
      Reads reads,
      AttentionReads attention,
      TeamEventFeed feed,
      StreamProperties streams,
      StreamDrain drain,
      JsonMapper mapper,
      SessionRecords sessions) {
    this.reads = reads;
    this.attention = attention;
    this.feed = feed;
    this.streams = streams;
    this.drain = drain;
    this.mapper = mapper;
    this.sessions = sessions;
  }

  @GetMapping("/console/attention")
  public Mono<String> page(Principal principal, Model model) {
    return items(principal, model).thenReturn("attention");
  }

  /** The page's list alone, reread when the live counts change. */
  @GetMapping("/console/attention/items")
  public Mono<String> list(Principal principal, Model model) {
    return items(principal, model).thenReturn("attention :: items");
  }

  private Mono<Void> items(Principal principal, Model model) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .teams(owner)
        .map(
            teams ->
                teams.stream().sorted(Comparator.comparing(Team::createdAt).reversed()).toList())
        .flatMap(teams -> attention.of(owner, teams))
        .doOnNext(
            found -> {
              model.addAttribute("teams", found.stream().filter(a -> a.needsYou() > 0).toList());
              model.addAttribute("error", null);
            })
        .onErrorResume(
            ApiResult.ApiException.class,
            e -> {
              model.addAttribute("teams", List.of());
              model.addAttribute("error", e.result().message());
              return Mono.empty();
            })
        .then();
  }

  @GetMapping(value = "/console/attention/live", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  @ResponseBody
  public Flux<ServerSentEvent<String>> live(Principal principal) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    Map<UUID, Attention> known = new ConcurrentHashMap<>();
    // The teams are read again at each heartbeat: a team made or deleted elsewhere joins or leaves.
    Flux<List<Team>> teamSets =
        reads
            .teams(owner)
            .flux()
            .concatWith(
                Flux.interval(streams.heartbeat())
                    .onBackpressureDrop()
                    .concatMap(tick -> reads.teams(owner).onErrorResume(e -> Mono.empty()), 1))
            .distinctUntilChanged(AttentionController::ids);
    Flux<ServerSentEvent<String>> counts =
        teamSets
            .switchMap(teams -> watch(owner, teams, known))
            .distinctUntilChanged()
            .map(json -> ServerSentEvent.builder(json).event("attention").build());
    Flux<ServerSentEvent<String>> keepAlive =
        Flux.interval(streams.heartbeat())
            .map(tick -> ServerSentEvent.<String>builder().comment("keep-alive").build());
    return sessions.untilSignedOut(
        ConsoleModel.signedIn(principal).session(),
        drain.endOnShutdown(Flux.merge(counts, keepAlive)));
  }

  /**
   * The owner's counts now and after every change of one of the teams' jobs or tasks. Changes that
   * arrive while a reread is under way are gathered, and each team they touched is read once.
   */
  private Flux<String> watch(Caller.Owner owner, List<Team> teams, Map<UUID, Attention> known) {
    Map<UUID, Team> byId = new LinkedHashMap<>();
    teams.forEach(team -> byId.put(team.id(), team));
    known.keySet().retainAll(byId.keySet());
    Set<UUID> dirty = ConcurrentHashMap.newKeySet();
    dirty.addAll(byId.keySet());
    // Each team's stream starts where the team is now, before the first reread.
    List<Flux<UUID>> changes =
        teams.stream()
            .map(
                team ->
                    feed.stream(
                            team.id().toString(),
                            owner.ownerId(),
                            Optional.of(feed.position(team.id().toString())),
                            AttentionController::touchesAttention)
                        .map(item -> team.id()))
            .toList();
    return Flux.merge(changes)
        .doOnNext(dirty::add)
        .map(id -> Boolean.TRUE)
        .startWith(Boolean.TRUE)
        .onBackpressureLatest()
        .concatMap(
            signal -> {
              List<UUID> reread = List.copyOf(dirty);
              dirty.removeAll(reread);
              return Flux.fromIterable(reread)
                  .filter(byId::containsKey)
                  .flatMap(
                      id ->
                          attention
                              .of(owner, byId.get(id))
                              // A failed read keeps what was known of the team.
                              .onErrorResume(e -> Mono.empty()),
                      4)
                  .doOnNext(found -> known.put(found.teamId(), found))
                  .then(Mono.fromSupplier(() -> payload(byId, known)));
            },
            1);
  }

  private static boolean touchesAttention(FeedEvent event) {
    return event.from(Topics.SCHEDULER_EVENTS) || event.from(Topics.TASK_EVENTS);
  }

  private String payload(Map<UUID, Team> teams, Map<UUID, Attention> known) {
    int waiting = 0;
    int blocked = 0;
    int failed = 0;
    Map<String, Map<String, Integer>> byTeam = new LinkedHashMap<>();
    for (UUID id : teams.keySet()) {
      Attention team = known.get(id);
      if (team == null) {
        continue;
      }
      waiting += team.waiting();
      blocked += team.blocked();
      failed += team.failed();
      byTeam.put(id.toString(), team.counts());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("needs_you", waiting + blocked + failed);
    body.put("waiting", waiting);
    body.put("blocked", blocked);
    body.put("failed", failed);
    body.put("teams", byTeam);
    return mapper.writeValueAsString(body);
  }

  private static Set<UUID> ids(List<Team> teams) {
    return teams.stream().map(Team::id).collect(Collectors.toSet());
  }
}
