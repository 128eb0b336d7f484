package io.agentteams.scheduler.webhook.push;

import io.agentteams.platform.identity.Caller;
import io.agentteams.scheduler.dispatch.application.LeasedDispatch;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.dispatch.web.OfferView;
import io.agentteams.scheduler.dispatch.web.WorkerEventsController.WorkerEvent;
import io.agentteams.scheduler.job.application.JobTransitions;
import io.agentteams.scheduler.job.domain.Usage;
import io.agentteams.scheduler.job.messaging.JobEvents;
import io.agentteams.scheduler.signal.DatabaseSignals;
import io.agentteams.scheduler.webhook.WebhookProperties;
import io.agentteams.scheduler.webhook.client.WebhookPusher;
import io.agentteams.scheduler.webhook.domain.PushAgent;
import io.agentteams.scheduler.webhook.domain.PushResult;
import io.agentteams.scheduler.webhook.domain.RetryPolicy;
import io.agentteams.scheduler.webhook.persistence.PushAgentStore;
import io.agentteams.scheduler.webhook.persistence.PushDeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The webhook runtime. Every replica looks for webhook agents' offerable jobs (on the database's
 * dispatch signal and on a poll), claims them under a lease exactly as a pull worker would (one
 * replica per job), and pushes each one:
 *
 * <ol>
 *   <li>before every attempt, in one committed transaction, the job's lease is renewed and the
 *       attempt is counted — so what was sent is known durably before the request leaves, and a
 *       replica that dies mid-push leaves a lease that lapses into a reconciliation, never a lost
 *       or silently repeated push;
 *   <li>the agent answers in the response ({@code completed}, {@code failed}, {@code
 *       input_required}, like a worker's report) or with 202, after which it reports under the
 *       lease token as a pull worker does;
 *   <li>network errors before sending, 429 and 5xx are retried with exponential back-off and jitter
 *       (or the agent's {@code Retry-After}), up to the attempt limit, then the job fails with the
 *       reason; any other refusal fails it at once;
 *   <li>when the request left but no answer came back, the job becomes {@code unknown} (keeping its
 *       slot) and after the reconcile delay is offered again as a reconciliation: the same message,
 *       with the same {@code webhook-id}, marked {@code reconcile}, so the agent answers from its
 *       own record instead of running the job twice.
 * </ol>
 */
@Component
public class WebhookDispatcher implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);
  private static final int AGENTS_PER_PASS = 100;

  /** The lease holder webhook offers name: the webhook runtime, whichever replica pushes. */
  static final String HOLDER = "webhook-runtime";

  private static final String ATTEMPTS = "agentteams.scheduler.webhook.push.attempts";
  private static final String FAILURES = "agentteams.scheduler.webhook.push.failures";
  private static final String LATENCY = "agentteams.scheduler.webhook.push.latency";
  private static final List<String> OUTCOMES =
      List.of(
          "answered", "accepted", "retryable", "unauthorized", "rejected", "unknown", "refused");
  private static final List<String> FAILURE_REASONS =
      List.of(
          "retries_exhausted", "unauthorized", "rejected", "guard", "invalid_answer", "unknown");

  private final PushAgentStore agents;
  private final PushDeliveryStore deliveries;
  private final LeasedDispatch dispatch;
  private final JobTransitions transitions;
  private final JobEvents events;
  private final TransactionalOperator transactions;
  private final DatabaseSignals signals;
  private final WebhookPusher pusher;
  private final WebhookProperties properties;
  private final RetryPolicy retries;
  private final JsonMapper json;
  private final Clock clock;
  private final MeterRegistry meters;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Disposable loop = () -> {};

  public WebhookDispatcher(
      PushAgentStore agents,
      PushDeliveryStore deliveries,
      LeasedDispatch dispatch,
      JobTransitions transitions,
      JobEvents events,
      TransactionalOperator transactions,
      DatabaseSignals signals,
      WebhookPusher pusher,
      WebhookProperties properties,
      JsonMapper json,
      Clock clock,
      MeterRegistry meters) {
    this.agents = agents;
    this.deliveries = deliveries;
    this.dispatch = dispatch;
    this.transitions = transitions;
    this.events = events;
    this.transactions = transactions;
    this.signals = signals;
    this.pusher = pusher;
    this.properties = properties;
    this.retries = properties.retryPolicy();
    this.json = json;
    this.clock = clock;
    this.meters = meters;
    meters.gauge("agentteams.scheduler.webhook.in.flight", inFlight);
    // Every series exists from the start, so dashboards and alerts read zeros, not gaps.
    OUTCOMES.forEach(
        outcome -> {
          attempts(outcome);
          latency(outcome);
        });
    FAILURE_REASONS.forEach(this::failures);
  }

  /** One pass: claims what waits for every webhook agent this replica has room for. */
  public Mono<Void> pass() {
    return agents
        .webhookAgentsWithOfferableJobs(AGENTS_PER_PASS)
        .concatMap(this::claim)
        .then()
        .onErrorResume(
            e -> {
              log.warn("a webhook dispatch pass failed; the next one retries: {}", e.toString());
              return Mono.empty();
            });
  }

  private Mono<Void> claim(AgentKey agent) {
    return dispatch
        .claimForRuntime(
            agent, HOLDER, properties.maxInFlight() - inFlight.get(), properties.leaseTtl())
        .doOnNext(this::start)
        .then();
  }

  /** Pushes a claimed offer on its own; the lease it holds makes sure it is never forgotten. */
  private void start(Offer offer) {
    inFlight.incrementAndGet();
    AgentKey key = new AgentKey(offer.spec().ownerId(), offer.spec().target().agentId());
    agents
        .webhook(key)
        .flatMap(agent -> push(offer, agent))
        .doFinally(signal -> inFlight.decrementAndGet())
        .subscribe(
            done -> {},
            e ->
                log.warn(
                    "pushing job {} failed; its lease lapses into a reconciliation: {}",
                    offer.job().id(),
                    e.toString()));
  }

  private Mono<Void> push(Offer offer, PushAgent agent) {
    byte[] body = body(offer);
    // One message per admission: every attempt and every reconciliation of it share the id.
    String messageId = "msg_" + offer.job().id() + "_" + offer.job().admissions();
    return attempt(offer, agent, messageId, body);
  }

  private Mono<Void> attempt(Offer offer, PushAgent agent, String messageId, byte[] body) {
    UUID jobId = offer.job().id();
    String token = offer.lease().token();
    Mono<Integer> begun =
        transactions.transactional(
            transitions
                .apply(
                    jobId,
                    (job, now) -> {
                      job.extendLease(token, now);
                      return null;
                    })
                .then(deliveries.beginAttempt(jobId, messageId, clock.instant())));
    return begun
        .onErrorResume(
            e -> {
              // The job moved on (a report, a cancel, a newer offer): nothing more to send.
              log.debug("job {} is no longer pushed under this lease: {}", jobId, e.toString());
              return Mono.empty();
            })
        .flatMap(
            attempt -> {
              Timer.Sample sample = Timer.start(meters);
              return pusher
                  .push(agent, messageId, body)
                  .flatMap(
                      result -> {
                        sample.stop(latency(result.outcome()));
                        attempts(result.outcome()).increment();
                        return deliveries
                            .recordOutcome(jobId, messageId, result.outcome())
                            .then(settle(offer, agent, messageId, body, attempt, result));
                      });
            });
  }

  private Mono<Void> settle(
      Offer offer, PushAgent agent, String messageId, byte[] body, int attempt, PushResult result) {
    String token = offer.lease().token();
    if (result instanceof PushResult.Answered answered) {
      return answered(offer, answered);
    }
    if (result instanceof PushResult.Accepted) {
      return report(offer, new WorkerReport.Started(token, null));
    }
    if (result instanceof PushResult.Retryable retry) {
      if (retries.mayRetryAfter(attempt)) {
        return Mono.delay(
                retries.delayAfter(
                    attempt, retry.retryAfter(), ThreadLocalRandom.current()::nextDouble))
            .then(attempt(offer, agent, messageId, body));
      }
      return fail(
          offer,
          "retries_exhausted",
          "the webhook push failed after " + attempt + " attempts: " + retry.reason());
    }
    if (result instanceof PushResult.Unauthorized refused) {
      return refusedAccess(offer, refused);
    }
    if (result instanceof PushResult.Rejected rejected) {
      return fail(offer, "rejected", rejected.reason());
    }
    if (result instanceof PushResult.Refused refused) {
      return fail(offer, "guard", "the outbound guard refused the endpoint: " + refused.reason());
    }
    return unknown(offer, (PushResult.Unknown) result);
  }

  private Mono<Void> answered(Offer offer, PushResult.Answered answered) {
    WorkerReport report;
    try {
      WorkerEvent event = json.readValue(answered.body(), WorkerEvent.class);
      report =
          new WorkerEvent(
                  event.type(),
                  offer.lease().token(),
                  event.runId(),
                  event.question(),
                  event.answer(),
                  event.error(),
                  event.usage())
              .toReport();
    } catch (RuntimeException invalid) {
      return fail(
          offer,
          "invalid_answer",
          "the agent answered "
              + answered.status()
              + " without a report (completed, failed or input_required): "
              + invalid.getMessage());
    }
    return report(offer, report);
  }

  private Mono<Void> unknown(Offer offer, PushResult.Unknown unknown) {
    failures("unknown").increment();
    log.info(
        "job {}: push outcome unknown ({}); reconciling later", offer.job().id(), unknown.reason());
    return transitions
        .apply(
            offer.job().id(),
            (job, now) ->
                job.pushOutcomeUnknown(
                    offer.lease().token(), now, now.plus(properties.reconcileDelay())))
        .onErrorResume(e -> Mono.empty())
        .then();
  }

  /**
   * The agent refused our credentials: its team is disconnected with the reason (through {@code
   * RuntimeRefusedAccess}), and the job is kept, unknown and holding its slot, without being marked
   * done. It is asked again under the same message id once the owner has reconnected the team.
   */
  private Mono<Void> refusedAccess(Offer offer, PushResult.Unauthorized refused) {
    failures("unauthorized").increment();
    String reason =
        "webhook agent '"
            + offer.spec().target().agentId()
            + "' refused a push with "
            + refused.status()
            + ": it no longer accepts this team's pushes";
    return transactions
        .transactional(
            transitions
                .apply(
                    offer.job().id(),
                    (job, now) ->
                        job.pushOutcomeUnknown(
                            offer.lease().token(), now, now.plus(properties.reconcileDelay())))
                .flatMap(job -> events.runtimeRefusedAccess(job, reason)))
        .onErrorResume(
            e -> {
              log.debug("job {}: refusal not recorded: {}", offer.job().id(), e.toString());
              return Mono.empty();
            })
        .then();
  }

  private Mono<Void> fail(Offer offer, String reason, String error) {
    failures(reason).increment();
    return report(offer, new WorkerReport.Failed(offer.lease().token(), error, Usage.NONE, null));
  }

  private Mono<Void> report(Offer offer, WorkerReport report) {
    Caller.Worker runtime =
        new Caller.Worker(offer.spec().ownerId(), offer.spec().target().agentId());
    return dispatch
        .report(runtime, offer.job().id(), report)
        .onErrorResume(
            e -> {
              // A stale lease or a finished job: someone settled it first; that answer stands.
              log.debug("job {}: report not applied: {}", offer.job().id(), e.toString());
              return Mono.empty();
            })
        .then();
  }

  private byte[] body(Offer offer) {
    Push push = new Push("job.offered", clock.instant(), OfferView.of(offer, json));
    return json.writeValueAsString(push).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A push's body, in the Standard Webhooks shape.
   *
   * @param type always {@code job.offered}
   * @param timestamp when it was made
   * @param data the job, exactly as a pull worker receives it (lease token included)
   */
  public record Push(String type, Instant timestamp, OfferView data) {}

  private Counter attempts(String outcome) {
    return Counter.builder(ATTEMPTS)
        .description("Webhook push attempts, by how they ended")
        .tag("outcome", outcome)
        .register(meters);
  }

  private Timer latency(String outcome) {
    return Timer.builder(LATENCY)
        .description("How long a push attempt took until its answer (or failure)")
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(meters);
  }

  private Counter failures(String reason) {
    return Counter.builder(FAILURES)
        .description("Webhook pushes that failed their job or left its outcome unknown, by reason")
        .tag("reason", reason)
        .register(meters);
  }

  /** Forgets push records of jobs that ended long enough ago. */
  public Mono<Long> housekeep() {
    return deliveries.forgetFinished(clock.instant().minus(properties.deliveryRetention()), 1000);
  }

  /**
   * Passes on the database's dispatch signal (a job became offerable, on whichever replica); the
   * periodic pass ({@code WebhookLoops}) is the safety net.
   */
  @Override
  public void start() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    loop =
        signals
            .on(DatabaseSignals.DISPATCH)
            .map(notification -> Boolean.TRUE)
            .onBackpressureLatest()
            .concatMap(trigger -> pass(), 1)
            .subscribe(n -> {}, e -> log.error("webhook dispatcher stopped", e));
  }

  @Override
  public void stop() {
    running.set(false);
    loop.dispose();
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }
}
