package io.agentteams.scheduler.support;

import static org.awaitility.Awaitility.await;

import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * An agent worker as a runtime would write one: it holds the job stream of its agent on a replica
 * and reports on jobs over HTTP. Offers arrive in a queue the test takes them from.
 */
public final class TestWorker implements AutoCloseable {

  /** A report's HTTP status and body. */
  public record Reply(int status, Map<String, Object> body) {
    public String code() {
      return String.valueOf(body.get("code"));
    }
  }

  private static final ParameterizedTypeReference<ServerSentEvent<Map<String, Object>>> EVENTS =
      new ParameterizedTypeReference<>() {};
  private static final ParameterizedTypeReference<Map<String, Object>> JSON =
      new ParameterizedTypeReference<>() {};

  private final CallerTokens tokens;
  private final String ownerId;
  private final String agentId;
  private final ConcurrentLinkedQueue<Map<String, Object>> offers = new ConcurrentLinkedQueue<>();
  private final List<Map<String, Object>> received =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<UUID> interrupts = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final AtomicBoolean connected = new AtomicBoolean();
  private volatile Disposable stream = () -> {};

  public TestWorker(CallerTokens tokens, String ownerId, String agentId) {
    this.tokens = tokens;
    this.ownerId = ownerId;
    this.agentId = agentId;
  }

  private String bearer() {
    return "Bearer " + tokens.issue(new Caller.Worker(ownerId, agentId), Duration.ofMinutes(5));
  }

  /** Opens the stream on the replica at {@code baseUrl}, asking for leases of that length. */
  public TestWorker connect(String baseUrl, int leaseSeconds) {
    return connect(baseUrl, leaseSeconds, "");
  }

  /**
   * Opens the stream as the worker {@code workerId} that runs at most {@code maxJobs} jobs at once.
   */
  public TestWorker connect(String baseUrl, int leaseSeconds, String workerId, int maxJobs) {
    return connect(baseUrl, leaseSeconds, "&worker_id=" + workerId + "&max_jobs=" + maxJobs);
  }

  private TestWorker connect(String baseUrl, int leaseSeconds, String more) {
    disconnect();
    connected.set(false);
    stream =
        WebClient.create(baseUrl)
            .get()
            .uri(
                "/api/v1/agents/{agent}/jobs/stream?lease_seconds={s}" + more,
                agentId,
                leaseSeconds)
            .header("Authorization", bearer())
            .retrieve()
            .bodyToFlux(EVENTS)
            .subscribe(
                event -> {
                  connected.set(true);
                  if ("job".equals(event.event()) && event.data() != null) {
                    offers.add(event.data());
                    received.add(event.data());
                  }
                  if ("interrupt".equals(event.event()) && event.data() != null) {
                    interrupts.add(jobId(event.data()));
                  }
                },
                error -> connected.set(false),
                () -> connected.set(false));
    await().atMost(Duration.ofSeconds(30)).untilTrue(connected);
    return this;
  }

  public boolean isConnected() {
    return connected.get();
  }

  /** Closes the stream, as a worker that went away. */
  public void disconnect() {
    stream.dispose();
    connected.set(false);
  }

  /** The next offer, waiting for it. */
  public Map<String, Object> nextOffer() {
    await().atMost(Duration.ofSeconds(30)).until(() -> !offers.isEmpty());
    return offers.poll();
  }

  /** The next offer if one is there now. */
  public Optional<Map<String, Object>> pollOffer() {
    return Optional.ofNullable(offers.poll());
  }

  /** Every offer this worker received. */
  public List<Map<String, Object>> received() {
    return new ArrayList<>(received);
  }

  /** The jobs this worker was told on its stream to stop (event {@code interrupt}), in order. */
  public List<UUID> interrupts() {
    return List.copyOf(interrupts);
  }

  /** Reports on a job to the replica at {@code baseUrl}. */
  public Reply report(
      String baseUrl, UUID jobId, String type, String leaseToken, Map<String, ?> extra) {
    Map<String, Object> body = new HashMap<>(extra);
    body.put("type", type);
    body.put("lease_token", leaseToken);
    return WebClient.create(baseUrl)
        .post()
        .uri("/api/v1/jobs/{id}/events", jobId)
        .header("Authorization", bearer())
        .bodyValue(body)
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(JSON)
                    .defaultIfEmpty(Map.of())
                    .map(json -> new Reply(response.statusCode().value(), json)))
        .timeout(Duration.ofSeconds(30))
        .block();
  }

  /** Reports without blocking, for workers that run many jobs at once. */
  public Mono<Reply> reportAsync(
      String baseUrl, UUID jobId, String type, String leaseToken, Map<String, ?> extra) {
    return Mono.fromCallable(() -> report(baseUrl, jobId, type, leaseToken, extra))
        .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
  }

  public static UUID jobId(Map<String, Object> offer) {
    return UUID.fromString((String) offer.get("job_id"));
  }

  public static String leaseToken(Map<String, Object> offer) {
    return (String) offer.get("lease_token");
  }

  @Override
  public void close() {
    disconnect();
  }
}
