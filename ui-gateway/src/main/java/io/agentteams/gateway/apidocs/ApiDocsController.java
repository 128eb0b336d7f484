package io.agentteams.gateway.apidocs;

import io.agentteams.gateway.routing.ServiceEndpoints;
import io.swagger.v3.oas.annotations.Hidden;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /v3/api-docs}: the whole public API in one OpenAPI document, merged from the gateway's
 * own operations and each service's description, cached briefly. A service that does not answer is
 * left out and named under {@code x-unavailable}, and logged as a warning: unless it is the first
 * time the gateway asks it and it is only slow (a service writes its description on the first
 * request after its start), which is logged for the record and asked again at the next gathering.
 */
@RestController
@Hidden
public class ApiDocsController {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(ApiDocsController.class);

  private final WebClient web;
  private final ServiceEndpoints services;
  private final ApiDocsProperties settings;
  private final ApiDocsMerger merger;
  private final AtomicReference<Mono<ObjectNode>> cached = new AtomicReference<>();

  /** The sources asked at least once: only a first answer may be slow without a warning. */
  private final Set<String> asked = ConcurrentHashMap.newKeySet();

  private volatile int port;

  public ApiDocsController(
      WebClient.Builder web,
      ServiceEndpoints services,
      ApiDocsProperties settings,
      JsonMapper mapper) {
    this.web = web.build();
    this.services = services;
    this.settings = settings;
    this.merger = new ApiDocsMerger(mapper);
  }

  @EventListener
  void onStarted(WebServerInitializedEvent event) {
    // The gateway's own server, not its management server (a child context's event reaches here).
    if (event.getApplicationContext().getServerNamespace() == null) {
      servedOn(event.getWebServer().getPort());
    }
  }

  /** The port of the gateway's own server, which serves its own operations' description. */
  void servedOn(int port) {
    this.port = port;
  }

  @GetMapping(value = "/v3/api-docs", produces = MediaType.APPLICATION_JSON_VALUE)
  public Mono<ObjectNode> apiDocs() {
    return cached.updateAndGet(
        current ->
            current != null
                ? current
                : merged().cache(settings.cacheFor()).doOnError(e -> cached.set(null)));
  }

  /** Gathers afresh at each subscription: the cache subscribes again once its copy expires. */
  private Mono<ObjectNode> merged() {
    return Mono.defer(this::gathered);
  }

  private Mono<ObjectNode> gathered() {
    Map<String, String[]> sources =
        Map.of(
            "http://127.0.0.1:" + port + "/v3/api-docs/ui-gateway",
                new String[] {"Gateway", "gateway"},
            services.team() + "/v3/api-docs", new String[] {"Team", "team-service"},
            services.mailbox() + "/v3/api-docs", new String[] {"Mailbox", "mailbox-service"},
            services.taskBoard() + "/v3/api-docs", new String[] {"TaskBoard", "task-board-service"},
            services.scheduler() + "/v3/api-docs", new String[] {"Scheduler", "scheduler-service"});
    List<String> unavailable = new ArrayList<>();
    return Flux.fromIterable(sources.entrySet())
        .flatMapSequential(
            source ->
                web.get()
                    .uri(source.getKey())
                    .retrieve()
                    .bodyToMono(JsonNode.class)
                    .timeout(settings.fetchTimeout())
                    .map(
                        doc -> {
                          asked.add(source.getValue()[1]);
                          return new ApiDocsMerger.Source(
                              source.getValue()[0], source.getValue()[1], doc);
                        })
                    .onErrorResume(
                        e -> {
                          logUnavailable(source.getValue()[1], e);
                          synchronized (unavailable) {
                            unavailable.add(source.getValue()[1]);
                          }
                          return Mono.empty();
                        }))
        .sort((a, b) -> a.tag().compareTo(b.tag()))
        .collectList()
        .map(
            all -> {
              List<String> missing;
              synchronized (unavailable) {
                missing = unavailable.stream().sorted().toList();
              }
              return merger.merge("Agent Teams API", "v1", all, missing);
            });
  }

  private void logUnavailable(String source, Throwable failure) {
    boolean firstAsk = asked.add(source);
    if (firstAsk && failure instanceof TimeoutException) {
      log.info(
          "API description of {} not written within {} of the first request for it; left out"
              + " this time, asked again at the next gathering",
          source,
          settings.fetchTimeout());
    } else {
      log.warn("API description of {} unavailable: {}", source, failure.toString());
    }
  }
}
