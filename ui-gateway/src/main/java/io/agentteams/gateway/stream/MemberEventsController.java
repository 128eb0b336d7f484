package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.agentteams.gateway.access.GatewayPolicies;
import io.agentteams.gateway.identity.TeamDirectory;
import io.agentteams.platform.access.TeamAccess;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.platform.web.Fails;
import io.agentteams.platform.web.StreamDrain;
import io.agentteams.platform.web.WebProblems;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A member's view of its team: {@code GET /api/v1/teams/{teamId}/members/{member}/events} streams
 * its inbox, its tasks and the team's lifecycle; {@code GET /api/v1/teams/{teamId}/wait} returns
 * the next roster, mailbox, task or status change after the call, or nothing when it times out.
 */
@RestController
public class MemberEventsController {

  private static final Duration MAX_WAIT = Duration.ofMinutes(2);

  private final TeamEventFeed feed;
  private final TeamAccess access;
  private final TeamDirectory directory;
  private final StreamProperties properties;
  private final JsonMapper mapper;
  private final StreamDrain drain;

  public MemberEventsController(
      TeamEventFeed feed,
      TeamAccess access,
      TeamDirectory directory,
      StreamProperties properties,
      JsonMapper mapper,
      StreamDrain drain) {
    this.feed = feed;
    this.access = access;
    this.directory = directory;
    this.properties = properties;
    this.mapper = mapper;
    this.drain = drain;
  }

  /** A member's inbox, its tasks, its jobs and the team's lifecycle. */
  static Predicate<FeedEvent> memberView(String member) {
    return event -> event.from(Topics.TEAM_EVENTS) || event.concerns(member);
  }

  /**
   * What "wait" wakes on: roster and team status changes, the member's mail and jobs, and any task
   * change. Public-state edits are read with {@code read_team_state}, not waited for.
   */
  static Predicate<FeedEvent> waitView(String member) {
    return event ->
        (event.from(Topics.TEAM_EVENTS) && !event.type().startsWith("TeamState"))
            || event.from(Topics.TASK_EVENTS)
            || event.concerns(member);
  }

  @GetMapping(
      value = "/api/v1/teams/{teamId}/members/{member}/events",
      produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  @Fails(ProblemException.Kind.NOT_FOUND)
  public Flux<ServerSentEvent<String>> events(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable String member,
      @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId) {
    Optional<EventCursor> resume = EventCursor.parse(lastEventId);
    Flux<ServerSentEvent<String>> events =
        feed.stream(teamId.toString(), caller.ownerId(), resume, memberView(member))
            .map(TeamEventsController::toSse);
    Flux<ServerSentEvent<String>> heartbeats =
        Flux.interval(properties.heartbeat())
            .map(tick -> ServerSentEvent.<String>builder().comment("keep-alive").build());
    return access
        .screenedAs(caller, teamId, member, GatewayPolicies.MEMBER_VIEW)
        .then(
            caller instanceof Caller.Owner owner
                ? directory.requireVisible(owner, teamId)
                : Mono.empty())
        .thenMany(
            Flux.concat(
                Flux.just(ServerSentEvent.<String>builder().comment("stream open").build()),
                drain.endOnShutdown(Flux.merge(events, heartbeats))));
  }

  /** The result of {@code wait}. */
  public record WaitResult(boolean changed, @Nullable String kind, @Nullable JsonNode event) {}

  @GetMapping("/api/v1/teams/{teamId}/wait")
  @Fails(ProblemException.Kind.NOT_FOUND)
  public Mono<WaitResult> await(
      Caller caller,
      @PathVariable UUID teamId,
      @RequestParam(name = "timeout_ms", defaultValue = "30000") long timeoutMillis) {
    if (timeoutMillis < 0 || timeoutMillis > MAX_WAIT.toMillis()) {
      return Mono.error(
          WebProblems.invalid(
              "invalid-timeout", "timeout_ms must be between 0 and " + MAX_WAIT.toMillis()));
    }
    return access
        .screened(caller, teamId, GatewayPolicies.MEMBERS)
        .then(Mono.fromSupplier(() -> (Caller.Member) caller))
        .flatMap(
            member ->
                feed.next(teamId.toString(), member.ownerId())
                    .filter(waitView(member.member()))
                    .next()
                    .map(event -> new WaitResult(true, kind(event), mapper.readTree(event.json())))
                    .timeout(
                        Duration.ofMillis(timeoutMillis),
                        Mono.just(new WaitResult(false, null, null))));
  }

  private static String kind(FeedEvent event) {
    if (event.from(Topics.MAILBOX_EVENTS)) {
      return "mailbox";
    }
    if (event.from(Topics.TASK_EVENTS)) {
      return "task";
    }
    if (event.from(Topics.SCHEDULER_EVENTS)) {
      return "status";
    }
    return event.type().startsWith("Team") && !event.type().startsWith("TeamState")
        ? "status"
        : "roster";
  }
}
