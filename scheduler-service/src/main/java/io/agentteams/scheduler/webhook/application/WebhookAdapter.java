package io.agentteams.scheduler.webhook.application;

import io.agentteams.scheduler.dispatch.application.OfferView;
import io.agentteams.scheduler.dispatch.application.WorkerEvent;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.runtime.application.LeasedJob;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import io.agentteams.scheduler.runtime.application.WireMeters;
import io.agentteams.scheduler.runtime.domain.PushAgent;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import io.agentteams.scheduler.webhook.WebhookProperties;
import io.agentteams.scheduler.webhook.client.WebhookPusher;
import io.agentteams.scheduler.webhook.domain.PushResult;
import io.agentteams.scheduler.webhook.persistence.PushDeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The webhook runtime's wire, plugged into the shared lifecycle ({@code RuntimeDispatcher} claims
 * webhook agents' jobs under the {@code webhook-runtime} lease). Each claimed job is pushed:
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
public class WebhookAdapter implements RuntimeAdapter {

  /** The lease holder webhook offers name: the webhook runtime, whichever replica pushes. */
  static final String HOLDER = "webhook-runtime";

  private static final List<String> OUTCOMES =
      List.of(
          "answered", "accepted", "retryable", "unauthorized", "rejected", "unknown", "refused");
  private static final RuntimeProfile PROFILE =
      new RuntimeProfile(
          "webhook",
          HOLDER,
          "agentteams.scheduler.webhook.in.flight",
          "agentteams.scheduler.webhook.push.failures",
          "Webhook pushes that failed their job or left its outcome unknown, by reason",
          List.of(
              "retries_exhausted",
              "unauthorized",
              "rejected",
              "guard",
              "invalid_answer",
              "unknown"),
          "webhook-delivery-housekeeping");

  private final PushAgentStore agents;
  private final PushDeliveryStore deliveries;
  private final WebhookPusher pusher;
  private final RuntimeSettings settings;
  private final JsonMapper json;
  private final Clock clock;
  private final MeterRegistry meters;
  private final WireMeters wire;

  public WebhookAdapter(
      PushAgentStore agents,
      PushDeliveryStore deliveries,
      WebhookPusher pusher,
      WebhookProperties properties,
      JsonMapper json,
      Clock clock,
      MeterRegistry meters) {
    this.agents = agents;
    this.deliveries = deliveries;
    this.pusher = pusher;
    this.settings = properties.settings();
    this.json = json;
    this.clock = clock;
    this.meters = meters;
    this.wire =
        new WireMeters(
            meters,
            "agentteams.scheduler.webhook.push.attempts",
            "Webhook push attempts, by how they ended",
            "agentteams.scheduler.webhook.push.latency",
            "How long a push attempt took until its answer (or failure)");
    // Every series exists from the start, so dashboards and alerts read zeros, not gaps.
    OUTCOMES.forEach(
        outcome -> {
          attempts(outcome);
          latency(outcome);
        });
  }

  @Override
  public RuntimeProfile profile() {
    return PROFILE;
  }

  @Override
  public RuntimeSettings settings() {
    return settings;
  }

  @Override
  public Mono<Void> run(LeasedJob job) {
    Offer offer = job.offer();
    AgentKey key = new AgentKey(offer.spec().ownerId(), offer.spec().target().agentId());
    byte[] body = body(offer);
    // One message per admission: every attempt and every reconciliation of it share the id.
    String messageId = "msg_" + offer.job().id() + "_" + offer.job().admissions();
    return agents.webhook(key).flatMap(agent -> attempt(job, agent, messageId, body));
  }

  private Mono<Void> attempt(LeasedJob job, PushAgent agent, String messageId, byte[] body) {
    UUID jobId = job.id();
    return job.begin(deliveries.beginAttempt(jobId, messageId, clock.instant()))
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
                            .then(settle(job, agent, messageId, body, attempt, result));
                      });
            });
  }

  private Mono<Void> settle(
      LeasedJob job,
      PushAgent agent,
      String messageId,
      byte[] body,
      int attempt,
      PushResult result) {
    if (result instanceof PushResult.Answered answered) {
      return answered(job, answered);
    }
    if (result instanceof PushResult.Accepted) {
      return job.report(new WorkerReport.Started(job.token(), null)).then();
    }
    if (result instanceof PushResult.Retryable retry) {
      return job.retry(
          attempt,
          retry.retryAfter(),
          () -> attempt(job, agent, messageId, body),
          () -> "the webhook push failed after " + attempt + " attempts: " + retry.reason());
    }
    if (result instanceof PushResult.Unauthorized refused) {
      return job.refusedAccess(
          "unauthorized",
          "webhook agent '"
              + job.offer().spec().target().agentId()
              + "' refused a push with "
              + refused.status()
              + ": it no longer accepts this team's pushes");
    }
    if (result instanceof PushResult.Rejected rejected) {
      return job.fail("rejected", rejected.reason());
    }
    if (result instanceof PushResult.Refused refused) {
      return job.fail("guard", "the outbound guard refused the endpoint: " + refused.reason());
    }
    return job.unknown(((PushResult.Unknown) result).reason());
  }

  private Mono<Void> answered(LeasedJob job, PushResult.Answered answered) {
    WorkerReport report;
    try {
      WorkerEvent event = json.readValue(answered.body(), WorkerEvent.class);
      report = event.underLease(job.token()).toReport();
    } catch (RuntimeException invalid) {
      return job.fail(
          "invalid_answer",
          "the agent answered "
              + answered.status()
              + " without a report (completed, failed or input_required): "
              + invalid.getMessage());
    }
    return job.report(report).then();
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
    return wire.count("outcome", outcome);
  }

  private Timer latency(String outcome) {
    return wire.latency("outcome", outcome);
  }

  /** Forgets push records of jobs that ended long enough ago. */
  @Override
  public Mono<Long> forgetFinished(Instant endedBefore, int max) {
    return deliveries.forgetFinished(endedBefore, max);
  }
}
