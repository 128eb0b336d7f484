package io.agentteams.gateway.stream;

import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.StreamDrain;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/** {@code GET /api/v1/teams/{teamId}/events}: everything that happens in a team, live. */
@RestController
public class TeamEventsController {

  private final TeamEventFeed feed;
  private final TeamDirectory directory;
  private final StreamProperties properties;
  private final StreamDrain drain;

  public TeamEventsController(
      TeamEventFeed feed, TeamDirectory directory, StreamProperties properties, StreamDrain drain) {
    this.feed = feed;
    this.directory = directory;
    this.properties = properties;
    this.drain = drain;
  }

  @GetMapping(value = "/api/v1/teams/{teamId}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  public Flux<ServerSentEvent<String>> events(
      Caller.Owner owner,
      @PathVariable UUID teamId,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId) {
    Optional<EventCursor> resume = EventCursor.parse(lastEventId);
    Flux<ServerSentEvent<String>> events =
        feed.stream(teamId.toString(), owner.ownerId(), resume, event -> true)
            .map(TeamEventsController::toSse);
    Flux<ServerSentEvent<String>> heartbeats =
        Flux.interval(properties.heartbeat())
            .map(tick -> ServerSentEvent.<String>builder().comment("keep-alive").build());
    return directory
        .requireVisible(owner, teamId)
        .thenMany(
            Flux.concat(
                // Sent at once, so a client knows the stream is open before any event arrives.
                Flux.just(ServerSentEvent.<String>builder().comment("stream open").build()),
                drain.endOnShutdown(Flux.merge(events, heartbeats))));
  }

  static ServerSentEvent<String> toSse(TeamEventFeed.StreamItem item) {
    if (item instanceof TeamEventFeed.StreamItem.Event e) {
      return ServerSentEvent.builder(e.event().json())
          .id(e.event().cursor().toString())
          .event(e.event().type())
          .build();
    }
    TeamEventFeed.StreamItem.Reset reset = (TeamEventFeed.StreamItem.Reset) item;
    return ServerSentEvent.builder("{\"reason\":\"events were missed beyond the retained window\"}")
        .id(reset.cursor().toString())
        .event("reset")
        .build();
  }
}
