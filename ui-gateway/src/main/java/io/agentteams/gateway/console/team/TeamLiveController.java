package io.agentteams.gateway.console.team;

import io.agentteams.contracts.Topics;
import io.agentteams.gateway.console.ConsoleModel;
import io.agentteams.gateway.console.Fragments;
import io.agentteams.gateway.console.api.ApiResult;
import io.agentteams.gateway.console.api.Reads;
import io.agentteams.gateway.console.session.SessionRecords;
import io.agentteams.gateway.stream.EventCursor;
import io.agentteams.gateway.stream.StreamProperties;
import io.agentteams.gateway.stream.TeamEventFeed;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.StreamDrain;
import java.security.Principal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /console/teams/{teamId}/live}: the team page's live updates, as server-sent events
 * whose data are HTML fragments. Each event's id is the team stream's cursor, so the browser's
 * reconnect ({@code Last-Event-ID}) gets exactly what it missed; the page's first connection starts
 * where the page was read ({@code after}). A cursor older than the replay window gets a {@code
 * reset} event, and the page says that some updates were missed.
 */
@RestController
public class TeamLiveController {

  private static final Logger log = LoggerFactory.getLogger(TeamLiveController.class);

  private final TeamEventFeed feed;
  private final Reads reads;
  private final Fragments fragments;
  private final JsonMapper mapper;
  private final StreamProperties streams;
  private final StreamDrain drain;
  private final SessionRecords sessions;

  public TeamLiveController(
      TeamEventFeed feed,
      Reads reads,
      Fragments fragments,
      JsonMapper mapper,
      StreamProperties streams,
      StreamDrain drain,
      SessionRecords sessions) {
    this.feed = feed;
    this.reads = reads;
    this.fragments = fragments;
    this.mapper = mapper;
    this.streams = streams;
    this.drain = drain;
    this.sessions = sessions;
  }

  @GetMapping(value = "/console/teams/{teamId}/live", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  public Flux<ServerSentEvent<String>> live(
      @PathVariable UUID teamId,
      @RequestParam(required = false) @Nullable String after,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId,
      Principal principal) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    Optional<EventCursor> resume =
        EventCursor.parse(lastEventId).or(() -> EventCursor.parse(after));
    return reads
        .team(owner, teamId)
        .onErrorMap(
            ApiResult.ApiException.class,
            e ->
                new ResponseStatusException(
                    e.result().status() == 404 ? HttpStatus.NOT_FOUND : HttpStatus.BAD_GATEWAY))
        .flatMap(
            team ->
                Mono.zip(
                        Reads.orEmptyWhileUnknown(reads.activity(owner, teamId), List.of()),
                        Reads.orEmptyWhileUnknown(reads.tasks(owner, teamId), List.of()),
                        TeamPageController.workers(reads, owner))
                    .map(
                        found ->
                            new LiveConnection(
                                owner,
                                team,
                                found.getT1(),
                                found.getT2(),
                                found.getT3(),
                                reads,
                                fragments,
                                mapper)))
        .flatMapMany(
            connection ->
                sessions.untilSignedOut(
                    ConsoleModel.signedIn(principal).session(),
                    stream(connection, teamId, owner, resume)));
  }

  /**
   * {@code GET /console/teams/{teamId}/changes}: a bare {@code change} event whenever one of the
   * team's jobs or tasks changes, for pages that reread what they show of the team (a run's
   * timeline) instead of polling.
   */
  @GetMapping(
      value = "/console/teams/{teamId}/changes",
      produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  public Flux<ServerSentEvent<String>> changes(@PathVariable UUID teamId, Principal principal) {
    Caller.Owner owner = ConsoleModel.signedIn(principal).owner();
    return reads
        .team(owner, teamId)
        .onErrorMap(
            ApiResult.ApiException.class,
            e ->
                new ResponseStatusException(
                    e.result().status() == 404 ? HttpStatus.NOT_FOUND : HttpStatus.BAD_GATEWAY))
        .flatMapMany(
            team ->
                sessions.untilSignedOut(
                    ConsoleModel.signedIn(principal).session(),
                    drain.endOnShutdown(
                        Flux.merge(
                            feed.stream(
                                    teamId.toString(),
                                    owner.ownerId(),
                                    Optional.of(feed.position(teamId.toString())),
                                    event ->
                                        event.from(Topics.SCHEDULER_EVENTS)
                                            || event.from(Topics.TASK_EVENTS))
                                .map(item -> ServerSentEvent.builder("").event("change").build()),
                            Flux.interval(streams.heartbeat())
                                .map(
                                    tick ->
                                        ServerSentEvent.<String>builder()
                                            .comment("keep-alive")
                                            .build())))));
  }

  private Flux<ServerSentEvent<String>> stream(
      LiveConnection connection, UUID teamId, Caller.Owner owner, Optional<EventCursor> resume) {
    Flux<Object> items =
        Flux.merge(
            feed.stream(teamId.toString(), owner.ownerId(), resume, event -> true),
            Flux.interval(streams.heartbeat()));
    // One change after another: the connection remembers what the page shows. Worker presence
    // arrives as events of the team (WorkerPresenceChanged) like every other change.
    Flux<ServerSentEvent<String>> out =
        items.concatMap(
            item ->
                item instanceof TeamEventFeed.StreamItem streamItem
                    ? render(connection, streamItem).flux()
                    : Flux.just(ServerSentEvent.<String>builder().comment("keep-alive").build()),
            1);
    // Ends when this replica shuts down; the browser reconnects elsewhere with Last-Event-ID.
    return drain.endOnShutdown(
        Flux.concat(
            Flux.just(ServerSentEvent.<String>builder().comment("stream open").build()), out));
  }

  private Mono<ServerSentEvent<String>> render(
      LiveConnection connection, TeamEventFeed.StreamItem item) {
    if (item instanceof TeamEventFeed.StreamItem.Reset reset) {
      return Mono.just(
          ServerSentEvent.builder("").id(reset.cursor().toString()).event("reset").build());
    }
    TeamEventFeed.StreamItem.Event event = (TeamEventFeed.StreamItem.Event) item;
    String id = event.event().cursor().toString();
    return connection
        .on(event.event())
        .onErrorResume(
            e -> {
              // The page keeps what it shows; the next change of the same thing shows it.
              log.debug("live update of {} not rendered: {}", event.event().type(), e.toString());
              return Mono.just("");
            })
        // An event the page shows nothing of still moves the cursor the browser resumes from.
        .map(html -> ServerSentEvent.builder(html).id(id).event("fragment").build());
  }
}
