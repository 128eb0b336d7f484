package io.agentteams.scheduler.dispatch.application;

import io.agentteams.scheduler.SchedulerProperties;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.signal.DatabaseSignals;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The {@code pull} runtime: an agent worker holds a stream on any replica and receives its agent's
 * admitted jobs as offers. The stream claims offers when the database signals that one of its
 * agent's jobs became offerable (on whichever replica that happened), when it opens, and when the
 * replica's poll of all its streams ({@link #pollOpenStreams}) finds work for its agent.
 */
@Service
public class PullStreams {

  private static final Logger log = LoggerFactory.getLogger(PullStreams.class);
  private static final char SEPARATOR = '\u001f';

  private final DispatchPort dispatch;
  private final DatabaseSignals signals;
  private final SchedulerProperties.Dispatch properties;
  private final AtomicInteger open = new AtomicInteger();
  // The streams open on this replica, by agent, each with the trigger the safety-net poll fires.
  private final Map<AgentKey, Set<Sinks.Many<Boolean>>> local = new ConcurrentHashMap<>();

  public PullStreams(
      DispatchPort dispatch,
      DatabaseSignals signals,
      SchedulerProperties properties,
      MeterRegistry meters) {
    this.dispatch = dispatch;
    this.signals = signals;
    this.properties = properties.dispatch();
    meters.gauge("agentteams.scheduler.streams.open", open);
  }

  /** The lease a worker asked for, kept within the configured bounds. */
  public Duration leaseTtl(Integer requestedSeconds) {
    if (requestedSeconds == null) {
      return properties.leaseTtl();
    }
    Duration requested = Duration.ofSeconds(requestedSeconds);
    if (requested.compareTo(properties.minLeaseTtl()) < 0) {
      return properties.minLeaseTtl();
    }
    return requested.compareTo(properties.maxLeaseTtl()) > 0 ? properties.maxLeaseTtl() : requested;
  }

  /**
   * What a worker asked for when it opened its stream.
   *
   * @param leaseTtl the lease each offer comes with
   * @param workerId who holds the leases: the worker's own id, or one made up for this stream
   * @param maxJobs the most jobs it runs at once, or null for no limit
   */
  public record Terms(Duration leaseTtl, String workerId, @Nullable Integer maxJobs) {}

  /** Offers for the agent's worker, for as long as it stays subscribed. */
  public Flux<Offer> offers(AgentKey agent, Terms terms) {
    String payload = agent.payload();
    return Flux.defer(
        () -> {
          Sinks.Many<Boolean> polled = Sinks.many().multicast().directBestEffort();
          Flux<Boolean> triggers =
              Flux.merge(
                      Flux.just(Boolean.TRUE),
                      signals
                          .on(DatabaseSignals.DISPATCH)
                          .filter(n -> n.catchUp() || n.payload().equals(payload))
                          .map(n -> Boolean.TRUE),
                      polled.asFlux())
                  .onBackpressureLatest();
          return triggers
              .concatMap(trigger -> claimAll(agent, terms), 1)
              .doOnSubscribe(
                  s -> {
                    open.incrementAndGet();
                    local.computeIfAbsent(agent, a -> ConcurrentHashMap.newKeySet()).add(polled);
                  })
              .doFinally(
                  signal -> {
                    open.decrementAndGet();
                    local.computeIfPresent(
                        agent,
                        (a, streams) -> {
                          streams.remove(polled);
                          return streams.isEmpty() ? null : streams;
                        });
                  });
        });
  }

  /**
   * The safety net under the database's signals, for every stream this replica holds at once: one
   * look at which of their agents have work a stream would act on, and a wake-up for those streams
   * only. A stream of an agent with nothing to do costs nothing between signals, however many
   * streams are open.
   */
  public Mono<Long> pollOpenStreams() {
    if (local.isEmpty()) {
      return Mono.just(0L);
    }
    return dispatch
        .withWorkForStreams(List.copyOf(local.keySet()))
        .doOnNext(
            agent -> {
              for (Sinks.Many<Boolean> stream : local.getOrDefault(agent, Set.of())) {
                stream.tryEmitNext(Boolean.TRUE);
              }
            })
        .count();
  }

  /**
   * The jobs this stream's worker holds that were interrupted, as the database announces them (on
   * whichever replica the interrupt happened), for as long as it stays subscribed. A notification
   * lost while this replica's listening connection was down is not replayed: the worker's next
   * heartbeat for the job is refused as a report on an ended job, which stops the turn too.
   */
  public Flux<UUID> interrupts(AgentKey agent, Terms terms) {
    String prefix = agent.payload() + SEPARATOR + terms.workerId() + SEPARATOR;
    return signals
        .on(DatabaseSignals.INTERRUPT)
        .filter(n -> !n.catchUp() && n.payload().startsWith(prefix))
        .map(n -> UUID.fromString(n.payload().substring(prefix.length())));
  }

  /**
   * Claims while the worker has room, until a claim comes back short, so a burst is not left for
   * the next poll. Room first brings back jobs that waited for a worker (they queue again and come
   * as offers once admitted).
   */
  private Flux<Offer> claimAll(AgentKey agent, Terms terms) {
    int batch = properties.offersPerClaim();
    Mono<Integer> room =
        terms.maxJobs() == null
            ? Mono.just(Integer.MAX_VALUE)
            : dispatch.leasesHeldBy(agent, terms.workerId()).map(held -> terms.maxJobs() - held);
    return room.flatMapMany(
            free ->
                free <= 0
                    ? Flux.<Offer>empty()
                    : dispatch
                        .workerHasRoom(agent, Math.min(free, batch))
                        .then(claimUpTo(agent, terms, free, batch))
                        .flatMapIterable(offers -> offers))
        .onErrorResume(
            e -> {
              log.warn(
                  "claiming offers for {} failed; the next wake-up retries: {}",
                  agent,
                  e.toString());
              return Flux.empty();
            });
  }

  private Mono<List<Offer>> claimUpTo(AgentKey agent, Terms terms, int free, int batch) {
    int asked = Math.min(free, batch);
    return dispatch
        .claim(agent, terms.workerId(), asked, terms.leaseTtl())
        .collectList()
        .flatMap(
            claimed ->
                claimed.size() < asked || free - claimed.size() <= 0
                    ? Mono.just(claimed)
                    : claimUpTo(agent, terms, free - claimed.size(), batch)
                        .map(
                            more -> {
                              List<Offer> all = new ArrayList<>(claimed);
                              all.addAll(more);
                              return all;
                            }));
  }
}
