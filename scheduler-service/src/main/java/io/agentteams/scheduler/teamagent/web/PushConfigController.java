package io.agentteams.scheduler.teamagent.web;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundRefused;
import io.agentteams.platform.problem.ProblemException;
import io.agentteams.scheduler.job.application.JobCommands;
import io.agentteams.scheduler.teamagent.domain.PushConfig;
import io.agentteams.scheduler.teamagent.persistence.PushConfigStore;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code /api/v1/jobs/{jobId}/push-configs}: where an owner's A2A client wants the state changes of
 * a task (a job) pushed. The URL passes the outbound guard when the config is made (a refused one
 * is 400 {@code invalid-url} with the reason) and on every push. A job that is not the owner's is
 * 404 before the body is looked at.
 */
@RestController
public class PushConfigController {

  private static final int MAX_CONFIGS = 10;
  private static final int MAX_URL_BYTES = 2048;
  private static final int MAX_TEXT_BYTES = 1024;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private final JobCommands jobs;
  private final PushConfigStore configs;
  private final OutboundHttp outbound;
  private final Clock clock;

  public PushConfigController(
      JobCommands jobs, PushConfigStore configs, OutboundHttp outbound, Clock clock) {
    this.jobs = jobs;
    this.configs = configs;
    this.outbound = outbound;
    this.clock = clock;
  }

  /**
   * A config as given and shown.
   *
   * @param id its id; one is made when none is given
   * @param url where pushes go
   * @param token the client's token for its pushes
   * @param authentication the {@code Authorization} pushes carry
   */
  public record ConfigView(
      @Nullable String id,
      @Nullable String url,
      @Nullable String token,
      @Nullable Authentication authentication) {

    /** The scheme and credentials of the pushes' {@code Authorization} header. */
    public record Authentication(@Nullable String scheme, @Nullable String credentials) {}

    static ConfigView of(PushConfig config) {
      return new ConfigView(
          config.id(),
          config.url(),
          config.token(),
          config.authScheme() == null
              ? null
              : new Authentication(config.authScheme(), config.authCredentials()));
    }
  }

  /**
   * Answers whether a config would be accepted (its form, and its URL by the outbound guard)
   * without keeping anything: what a client that gives a config with a new task asks before the
   * task is made, so a refused config leaves no task behind.
   */
  @PostMapping("/api/internal/v1/push-configs/checks")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  public Mono<Void> check(Caller.Owner owner, @RequestBody Mono<ConfigView> body) {
    return body.flatMap(given -> vetted(checked(new UUID(0, 0), given))).then();
  }

  @PostMapping("/api/v1/jobs/{jobId}/push-configs")
  @ResponseStatus(HttpStatus.CREATED)
  public Mono<ConfigView> create(
      Caller.Owner owner, @PathVariable UUID jobId, @RequestBody Mono<ConfigView> body) {
    return jobs.find(owner, jobId)
        .then(body)
        .flatMap(
            given -> {
              PushConfig config = checked(jobId, given);
              return vetted(config)
                  .then(configs.count(jobId))
                  .flatMap(
                      count ->
                          count >= MAX_CONFIGS
                              ? configs
                                  .find(jobId, config.id())
                                  .switchIfEmpty(
                                      Mono.error(
                                          new ProblemException(
                                              ProblemException.Kind.LIMIT_EXCEEDED,
                                              "too-many-push-configs",
                                              "a task has at most " + MAX_CONFIGS + " push configs",
                                              Map.of("limit", MAX_CONFIGS))))
                                  .then(configs.save(config, owner.ownerId(), clock.instant()))
                              : configs.save(config, owner.ownerId(), clock.instant()));
            })
        .map(ConfigView::of);
  }

  @GetMapping("/api/v1/jobs/{jobId}/push-configs")
  public Mono<Map<String, List<ConfigView>>> list(Caller.Owner owner, @PathVariable UUID jobId) {
    return jobs.find(owner, jobId)
        .thenMany(configs.list(jobId))
        .map(ConfigView::of)
        .collectList()
        .map(list -> Map.of("configs", list));
  }

  @GetMapping("/api/v1/jobs/{jobId}/push-configs/{configId}")
  public Mono<ConfigView> get(
      Caller.Owner owner, @PathVariable UUID jobId, @PathVariable String configId) {
    return jobs.find(owner, jobId)
        .then(configs.find(jobId, configId))
        .switchIfEmpty(Mono.error(() -> notFound(configId)))
        .map(ConfigView::of);
  }

  @DeleteMapping("/api/v1/jobs/{jobId}/push-configs/{configId}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  public Mono<Void> delete(
      Caller.Owner owner, @PathVariable UUID jobId, @PathVariable String configId) {
    return jobs.find(owner, jobId)
        .then(configs.delete(jobId, configId))
        .flatMap(deleted -> deleted ? Mono.<Void>empty() : Mono.error(notFound(configId)));
  }

  private Mono<URI> vetted(PushConfig config) {
    return outbound
        .vet(config.url())
        .onErrorMap(
            OutboundRefused.class,
            refused ->
                new ProblemException(
                    ProblemException.Kind.INVALID,
                    "invalid-url",
                    "the push URL " + config.url() + " may not be called: " + refused.reason()));
  }

  private static PushConfig checked(UUID jobId, ConfigView given) {
    String id =
        given.id() == null || given.id().isBlank() ? UUID.randomUUID().toString() : given.id();
    if (!ID.matcher(id).matches()) {
      throw invalid("invalid-push-config", "a push config id is 1 to 128 letters, digits or ._:-");
    }
    String url = given.url();
    if (url == null || url.isBlank()) {
      throw invalid("invalid-url", "a push config needs a url");
    }
    if (url.getBytes(StandardCharsets.UTF_8).length > MAX_URL_BYTES) {
      throw invalid("invalid-url", "a push url is at most " + MAX_URL_BYTES + " bytes");
    }
    ConfigView.Authentication auth = given.authentication();
    String scheme = auth == null ? null : auth.scheme();
    String credentials = auth == null ? null : auth.credentials();
    for (String text : new String[] {given.token(), scheme, credentials}) {
      if (text != null
          && (text.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES
              || text.chars().anyMatch(c -> c < 0x20 || c == 0x7f))) {
        throw invalid(
            "invalid-push-config",
            "a token, scheme or credentials is at most "
                + MAX_TEXT_BYTES
                + " bytes without control characters");
      }
    }
    if (scheme != null && !scheme.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
      throw invalid("invalid-push-config", "the authentication scheme is not an HTTP token");
    }
    return new PushConfig(
        jobId, id, url, blankToNull(given.token()), blankToNull(scheme), blankToNull(credentials));
  }

  private static @Nullable String blankToNull(@Nullable String text) {
    return text == null || text.isBlank() ? null : text;
  }

  private static ProblemException invalid(String code, String detail) {
    return new ProblemException(ProblemException.Kind.INVALID, code, detail);
  }

  private static ProblemException notFound(String configId) {
    return new ProblemException(
        ProblemException.Kind.NOT_FOUND,
        "push-config-not-found",
        "push config " + configId + " does not exist");
  }
}
