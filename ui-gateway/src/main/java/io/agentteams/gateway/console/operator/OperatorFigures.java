package io.agentteams.gateway.console.operator;

import io.agentteams.gateway.console.ConsoleProperties;
import io.agentteams.gateway.routing.ServiceEndpoints;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Gathers the operator page's figures: the scheduler's admission and backlog metrics and each
 * service's outbox backlog, from the metrics the services expose for Prometheus (the same figures
 * the dashboards show), and the consumer groups' lag from the broker.
 */
@Component
public class OperatorFigures {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /**
   * The largest metrics page read: a service's page passes WebClient's default 256 KB once its
   * timers' histograms are in (the scheduler's did).
   */
  private static final int MAX_PAGE_BYTES = 16 * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(OperatorFigures.class);

  private final WebClient web;
  private final Map<String, URI> services;
  private final String metricsPath;
  private final ConsumerLag lag;

  public OperatorFigures(
      WebClient.Builder web,
      ServiceEndpoints endpoints,
      ConsoleProperties properties,
      ConsumerLag lag) {
    this.web =
        web.clone()
            .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_PAGE_BYTES))
            .build();
    this.metricsPath = properties.operator().metricsPath();
    Map<String, URI> known = new LinkedHashMap<>();
    known.put("team-service", endpoints.team());
    known.put("mailbox-service", endpoints.mailbox());
    known.put("task-board-service", endpoints.taskBoard());
    known.put("scheduler-service", endpoints.scheduler());
    known.putAll(properties.operator().metrics());
    this.services = known;
    this.lag = lag;
  }

  /** What the operator page shows. */
  public record Figures(
      @Nullable Admission admission,
      List<Outbox> outboxes,
      List<ConsumerLag.GroupLag> consumers,
      @Nullable String consumersError) {}

  /**
   * Admission across the deployment.
   *
   * @param activeSlots slots held
   * @param slots the bound
   * @param waitingInput jobs waiting for their owner's answer
   * @param oldestQueuedSeconds how long the oldest queued job has waited
   * @param queued queued jobs across the deployment
   * @param ownersQueued owners with at least one queued job
   * @param deepestQueue queued jobs of the owner with the most
   */
  public record Admission(
      long activeSlots,
      long slots,
      long waitingInput,
      double oldestQueuedSeconds,
      long queued,
      long ownersQueued,
      long deepestQueue) {}

  /**
   * One service's outbox: rows not yet acknowledged by the broker and the oldest one's age.
   *
   * @param error why it could not be read, or null
   */
  public record Outbox(
      String service, long pending, double oldestSeconds, @Nullable String error) {}

  public Mono<Figures> gather() {
    Mono<Map<String, Optional<PrometheusText>>> metrics =
        Flux.fromIterable(services.entrySet())
            .flatMap(
                service ->
                    scrape(service.getValue())
                        .map(text -> Map.entry(service.getKey(), Optional.of(text)))
                        .onErrorResume(
                            e -> {
                              log.warn(
                                  "the operator page could not read {}'s metrics: {}",
                                  service.getKey(),
                                  e.toString());
                              return Mono.just(
                                  Map.entry(service.getKey(), Optional.<PrometheusText>empty()));
                            }))
            .collectMap(Map.Entry::getKey, Map.Entry::getValue, LinkedHashMap::new);
    Mono<Object> consumers =
        lag.groups().<Object>map(groups -> groups).onErrorResume(e -> Mono.just(e.toString()));
    return Mono.zip(metrics, consumers)
        .map(
            parts -> {
              Map<String, Optional<PrometheusText>> scraped = parts.getT1();
              List<Outbox> outboxes = new ArrayList<>();
              for (String service : services.keySet()) {
                PrometheusText text = scraped.getOrDefault(service, Optional.empty()).orElse(null);
                if (text == null) {
                  outboxes.add(new Outbox(service, 0, 0, "metrics could not be read"));
                  continue;
                }
                outboxes.add(
                    new Outbox(
                        service,
                        (long) text.value("agentteams_outbox_pending").orElse(0),
                        text.value("agentteams_outbox_oldest_pending_seconds").orElse(0),
                        null));
              }
              PrometheusText scheduler =
                  scraped.getOrDefault("scheduler-service", Optional.empty()).orElse(null);
              @SuppressWarnings("unchecked")
              List<ConsumerLag.GroupLag> groups =
                  parts.getT2() instanceof List<?> list
                      ? (List<ConsumerLag.GroupLag>) list
                      : List.of();
              return new Figures(
                  admission(scheduler),
                  outboxes,
                  groups,
                  parts.getT2() instanceof String error ? error : null);
            });
  }

  private static @Nullable Admission admission(@Nullable PrometheusText scheduler) {
    if (scheduler == null) {
      return null;
    }
    OptionalDouble slots = scheduler.value("agentteams_scheduler_slots_capacity");
    if (slots.isEmpty()) {
      return null;
    }
    return new Admission(
        (long) scheduler.value("agentteams_scheduler_slots_active").orElse(0),
        (long) slots.getAsDouble(),
        (long) scheduler.value("agentteams_scheduler_jobs_waiting_input").orElse(0),
        scheduler.value("agentteams_scheduler_queue_oldest_seconds").orElse(0),
        (long) scheduler.value("agentteams_scheduler_queue_depth").orElse(0),
        (long) scheduler.value("agentteams_scheduler_queue_owners").orElse(0),
        (long) scheduler.value("agentteams_scheduler_queue_depth_max").orElse(0));
  }

  private Mono<PrometheusText> scrape(URI base) {
    return web.get()
        .uri(base.resolve(metricsPath))
        .retrieve()
        .bodyToMono(String.class)
        .timeout(TIMEOUT)
        .map(PrometheusText::parse);
  }
}
