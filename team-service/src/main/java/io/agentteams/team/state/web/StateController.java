package io.agentteams.team.state.web;

import io.agentteams.contracts.team.StateEntry;
import io.agentteams.platform.identity.Caller;
import io.agentteams.team.state.application.PublicState;
import io.agentteams.team.state.domain.Entry;
import io.agentteams.team.state.domain.EntryChange;
import io.agentteams.team.state.domain.EntryKind;
import io.agentteams.team.state.domain.StateQuery;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/teams/{teamId}/state}: the members and the team's owner publish and update entries
 * (the owner's as {@code owner}, with no source conversation); both read them. Author, time and
 * source are never taken from the body.
 */
@RestController
@RequestMapping("/api/v1/teams/{teamId}/state")
public class StateController {

  private final PublicState state;

  public StateController(PublicState state) {
    this.state = state;
  }

  @GetMapping
  public Mono<StateView> read(
      Caller caller,
      @PathVariable UUID teamId,
      @RequestParam(name = "entry_id", required = false) @Nullable Long entryId,
      @RequestParam(required = false) @Nullable String kind,
      @RequestParam(name = "query", required = false) @Nullable String query,
      @RequestParam(name = "include_archived", defaultValue = "false") boolean includeArchived) {
    return Mono.fromCallable(
            () ->
                new StateQuery(
                    entryId,
                    kind == null || kind.isEmpty() ? null : EntryKind.fromWire(kind),
                    query,
                    includeArchived))
        .flatMap(q -> state.read(caller, teamId, q))
        .map(
            result ->
                new StateView(
                    result.stateRevision(), result.entries().stream().map(Entry::view).toList()));
  }

  @GetMapping("/{entryId}")
  public Mono<EntryView> entry(
      Caller caller, @PathVariable UUID teamId, @PathVariable long entryId) {
    return state
        .entry(caller, teamId, entryId)
        .map(result -> new EntryView(result.stateRevision(), result.entries().get(0).view()));
  }

  /**
   * 201 with the new entry; 200 with the existing one when this was a retry. A member publishes as
   * itself, the team's owner as {@code owner}.
   */
  @PostMapping
  public Mono<ResponseEntity<PublishView>> publish(
      Caller caller, @PathVariable UUID teamId, @RequestBody Mono<PublishRequest> body) {
    return state
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request ->
                state.publish(
                    caller,
                    teamId,
                    request.requestId(),
                    request.kind(),
                    request.title(),
                    request.content()))
        .map(
            result ->
                ResponseEntity.status(
                        result.published().created() ? HttpStatus.CREATED : HttpStatus.OK)
                    .body(
                        new PublishView(
                            result.published().created(),
                            result.published().entry().view(),
                            result.stateRevision())));
  }

  /** 200 when the change is in effect; 409 with the current entry when the revision was stale. */
  @PutMapping("/{entryId}")
  public Mono<ResponseEntity<UpdateView>> update(
      Caller caller,
      @PathVariable UUID teamId,
      @PathVariable long entryId,
      @RequestBody Mono<UpdateRequest> body) {
    return state
        .admit(caller, teamId)
        .then(body)
        .flatMap(
            request ->
                state.update(
                    caller,
                    teamId,
                    entryId,
                    request.expectedRevision(),
                    new EntryChange(
                        request.kind(), request.title(), request.content(), request.status())))
        .map(
            result ->
                ResponseEntity.status(
                        result.updated().conflict() ? HttpStatus.CONFLICT : HttpStatus.OK)
                    .body(
                        new UpdateView(
                            result.updated().updated(),
                            result.updated().conflict(),
                            result.updated().entry().view(),
                            result.stateRevision())));
  }

  /** A publish request; the author, time and source come from the caller, not from here. */
  public record PublishRequest(
      @Nullable String requestId,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content) {}

  /** An update request: absent fields stay as they are; kind may be repeated but not changed. */
  public record UpdateRequest(
      @Nullable Long expectedRevision,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content,
      @Nullable String status) {}

  /** Entries and the team-state revision they belong to. */
  public record StateView(long stateRevision, List<StateEntry> entries) {}

  /** One entry and the team-state revision. */
  public record EntryView(long stateRevision, StateEntry entry) {}

  /** What a publish did. */
  public record PublishView(boolean created, StateEntry entry, long stateRevision) {}

  /** What an update did; on a conflict {@code entry} is the current one. */
  public record UpdateView(
      boolean updated, boolean conflict, StateEntry entry, long stateRevision) {}
}
