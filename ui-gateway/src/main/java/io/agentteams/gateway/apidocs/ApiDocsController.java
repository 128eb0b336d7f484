package io.agentteams.gateway.apidocs;

import io.agentteams.gateway.routing.ServiceEndpoints;
import io.swagger.v3.oas.annotations.Hidden;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * left out and named under {@code x-unavailable}.
 */
@RestController
@Hidden
public class ApiDocsController {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(ApiDocsController.class);
  private static final Duration CACHE = Duration.ofSeconds(30);
  private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);

  private final WebClient web;
  private final ServiceEndpoints services;
  private final ApiDocsMerger merger;
  private final AtomicReference<Mono<ObjectNode>> cached = new AtomicReference<>();
  private volatile int port;

  public ApiDocsController(WebClient.Builder web, ServiceEndpoints services, JsonMapper mapper) {
    this.web = web.build();
    this.services = services;
    this.merger = new ApiDocsMerger(mapper);
  }

  @EventListener
  void onStarted(WebServerInitializedEvent event) {
    // The gateway's own server, not its management server (a child context's event reaches here).
    if (event.getApplicationContext().getServerNamespace() == null) {
      port = event.getWebServer().getPort();
    }
  }

  @GetMapping(value = "/v3/api-docs", produces = MediaType.APPLICATION_JSON_VALUE)
  public Mono<ObjectNode> apiDocs() {
    return cached.updateAndGet(
        current ->
            current != null ? current : merged().cache(CACHE).doOnError(e -> cached.set(null)));
  }

  private Mono<ObjectNode> merged() {
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
                    .timeout(FETCH_TIMEOUT)
                    .map(
                        doc ->
                            new ApiDocsMerger.Source(
                                source.getValue()[0], source.getValue()[1], doc))
                    .onErrorResume(
                        e -> {
                          log.warn(
                              "API description of {} unavailable: {}",
                              source.getValue()[1],
                              e.toString());
                          synchronized (unavailable) {
                            unavailable.add(source.getValue()[1]);
                          }
                          return Mono.empty();
                        }))
        .sort((a, b) -> a.tag().compareTo(b.tag()))
        .collectList()
        .map(all -> merger.merge("Agent Teams API", "v1", all, List.copyOf(unavailable)));
  }
}
