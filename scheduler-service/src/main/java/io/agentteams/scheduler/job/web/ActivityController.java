package io.agentteams.scheduler.job.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.web.WebProblems;
import io.agentteams.scheduler.job.application.JobCommands;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/teams/{teamId}/activity}: the team's requests and hand-offs, newest first,
 * each paired with its result and with the receipt that returned it. The ETag changes whenever any
 * job of the team changes, so a client polling with {@code If-None-Match} gets 304 until then.
 */
@RestController
public class ActivityController {

  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 200;

  private final JobCommands commands;
  private final JsonMapper json;

  public ActivityController(JobCommands commands, JsonMapper json) {
    this.commands = commands;
    this.json = json;
  }

  @GetMapping("/api/v1/teams/{teamId}/activity")
  public Mono<ResponseEntity<ActivityView>> activity(
      Caller.Owner owner,
      @PathVariable UUID teamId,
      @RequestParam(required = false) @Nullable Integer limit,
      @RequestParam(required = false) @Nullable UUID before,
      @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String etag) {
    int size = limit == null ? DEFAULT_LIMIT : limit;
    if (size < 1 || size > MAX_LIMIT) {
      return Mono.error(WebProblems.invalid("invalid-limit", "limit must be 1.." + MAX_LIMIT));
    }
    return commands
        .activity(owner, teamId, before, size)
        .map(
            activity -> {
              String tag = "\"" + activity.version() + "\"";
              if (tag.equals(etag)) {
                return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(tag).build();
              }
              return ResponseEntity.ok()
                  .eTag(tag)
                  .body(
                      new ActivityView(
                          teamId,
                          activity.items().stream()
                              .map(
                                  item ->
                                      new ActivityItemView(
                                          JobView.of(item.job(), json),
                                          item.receipt() == null
                                              ? null
                                              : JobView.of(item.receipt(), json)))
                              .toList()));
            });
  }

  /** A page of activity. */
  public record ActivityView(UUID teamId, List<ActivityItemView> items) {}

  /** A request or hand-off (its result inside) and the receipt that returned its answer. */
  public record ActivityItemView(JobView request, @Nullable JobView receipt) {}
}
