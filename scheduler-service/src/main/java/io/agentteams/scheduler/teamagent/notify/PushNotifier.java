package io.agentteams.scheduler.teamagent.notify;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.scheduler.A2aTaskState;
import io.agentteams.contracts.scheduler.JobStateChanged;
import io.agentteams.platform.consumer.EventSubscription;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.platform.outbound.OutboundHttp;
import io.agentteams.platform.outbound.OutboundRefused;
import io.agentteams.scheduler.a2a.A2aProperties;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.Outcome;
import io.agentteams.scheduler.job.domain.Question;
import io.agentteams.scheduler.job.persistence.JobStore;
import io.agentteams.scheduler.runtime.domain.RetryPolicy;
import io.agentteams.scheduler.teamagent.domain.PushConfig;
import io.agentteams.scheduler.teamagent.persistence.PushConfigStore;
import io.agentteams.scheduler.teamagent.persistence.PushConfigStore.Due;
import io.agentteams.scheduler.webhook.domain.WebhookSigner;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Pushes the state changes of owners' A2A tasks to their push-notification configs. Every {@code
 * JobStateChanged} of a job with configs owes each config one push (recorded once, in the
 * idempotent consumer's step); every replica sends what is due, claimed under a short lease so one
 * replica sends each push and one that dies leaves it due again. A push is a POST of the task (the
 * A2A {@code StreamResponse} with {@code task}) through the outbound guard, carrying the client's
 * token in {@code X-A2A-Notification-Token}, its {@code Authorization} if it gave one, and Standard
 * Webhooks headers signed with the token; failures are retried with back-off up to {@code
 * max-attempts}.
 */
@Configuration(proxyBeanMethods = false)
public class PushNotifier {

  private static final Logger log = LoggerFactory.getLogger(PushNotifier.class);
  private static final int PUSHES_PER_PASS = 100;
  private static final String NOTIFICATIONS = "agentteams.scheduler.a2a.push.notifications";

  private final PushConfigStore configs;
  private final JobStore jobs;
  private final WebClient client;
  private final A2aProperties properties;
  private final RetryPolicy retries;
  private final JsonMapper json;
  private final Clock clock;
  private final MeterRegistry meters;

  public PushNotifier(
      PushConfigStore configs,
      JobStore jobs,
      OutboundHttp outbound,
      A2aProperties properties,
      JsonMapper json,
      Clock clock,
      MeterRegistry meters) {
    this.configs = configs;
    this.jobs = jobs;
    this.client =
        outbound.client(
            "a2a-push",
            new OutboundHttp.Limits(
                properties.connectTimeout(),
                properties.responseTimeout(),
                (int) properties.maxResponseBytes().toBytes()));
    this.properties = properties;
    this.retries = properties.settings().retryPolicy();
    this.json = json;
    this.clock = clock;
    this.meters = meters;
    for (String outcome : List.of("sent", "retry", "rejected", "refused", "retries_exhausted")) {
      meters.counter(NOTIFICATIONS, "outcome", outcome);
    }
  }

  @Bean
  EventSubscription a2aPushNotificationsSubscription(EventCodec codec) {
    return EventSubscription.of(
            "a2a-push-notifications",
            Topics.SCHEDULER_EVENTS,
            event -> owe(codec.data(event, JobStateChanged.class)))
        .onlyTypes(JobStateChanged.TYPE);
  }

  @Bean
  PeriodicLoop a2aPushNotificationLoop(PeriodicLoops loops) {
    return loops
        .named("a2a-push-notifications")
        .every(properties.pollInterval())
        .running(this::pass);
  }

  @Bean
  PeriodicLoop a2aPushConfigHousekeepingLoop(PeriodicLoops loops) {
    return loops
        .named("a2a-push-config-housekeeping")
        .every(Duration.ofMinutes(10))
        .running(
            () ->
                configs.forgetFinished(clock.instant().minus(properties.recordRetention()), 1000));
  }

  private Mono<Void> owe(JobStateChanged changed) {
    return configs
        .owe(
            UUID.fromString(changed.jobId()),
            changed.jobRevision(),
            changed.state(),
            clock.instant())
        .then();
  }

  /** Sends what is due, in order. */
  Mono<Void> pass() {
    Duration lease = properties.connectTimeout().plus(properties.responseTimeout()).multipliedBy(2);
    return configs
        .claimDue(PUSHES_PER_PASS, clock.instant(), lease)
        .concatMap(this::send)
        .then()
        .onErrorResume(
            e -> {
              log.warn("an A2A push pass failed; the next one retries: {}", e.toString());
              return Mono.empty();
            });
  }

  private Mono<Void> send(Due due) {
    PushConfig config = due.config();
    return jobs.find(config.jobId())
        .flatMap(
            job -> {
              byte[] body = body(job, due.state()).getBytes(StandardCharsets.UTF_8);
              String messageId = config.jobId() + "-" + due.revision() + "-" + config.id();
              long timestamp = clock.instant().getEpochSecond();
              WebClient.RequestBodySpec request =
                  client
                      .post()
                      .uri(config.url())
                      .contentType(MediaType.APPLICATION_JSON)
                      .header(HttpHeaders.USER_AGENT, "agent-teams-a2a/1")
                      .header("webhook-id", messageId)
                      .header("webhook-timestamp", Long.toString(timestamp));
              if (config.token() != null) {
                request =
                    request
                        .header("X-A2A-Notification-Token", config.token())
                        .header(
                            "webhook-signature",
                            WebhookSigner.keyedSignature(
                                config.token().getBytes(StandardCharsets.UTF_8),
                                messageId,
                                timestamp,
                                body));
              }
              if (config.authScheme() != null) {
                request =
                    request.header(
                        HttpHeaders.AUTHORIZATION,
                        config.authScheme()
                            + (config.authCredentials() == null
                                ? ""
                                : " " + config.authCredentials()));
              }
              return request
                  .bodyValue(body)
                  .exchangeToMono(
                      response -> response.releaseBody().thenReturn(response.statusCode().value()))
                  .flatMap(status -> settled(due, status))
                  .onErrorResume(e -> failed(due, e));
            })
        .switchIfEmpty(configs.settle(config.jobId(), config.id(), due.revision(), "no_job"));
  }

  private Mono<Void> settled(Due due, int status) {
    PushConfig config = due.config();
    if (status >= 200 && status < 300) {
      meters.counter(NOTIFICATIONS, "outcome", "sent").increment();
      return configs.settle(config.jobId(), config.id(), due.revision(), "sent");
    }
    if (status == 408 || status == 429 || status >= 500) {
      return retry(due, "answered " + status);
    }
    meters.counter(NOTIFICATIONS, "outcome", "rejected").increment();
    return configs.settle(config.jobId(), config.id(), due.revision(), "rejected " + status);
  }

  private Mono<Void> failed(Due due, Throwable error) {
    PushConfig config = due.config();
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof OutboundRefused refused) {
        meters.counter(NOTIFICATIONS, "outcome", "refused").increment();
        return configs.settle(
            config.jobId(), config.id(), due.revision(), "refused: " + refused.reason());
      }
    }
    return retry(due, error.getClass().getSimpleName());
  }

  private Mono<Void> retry(Due due, String why) {
    PushConfig config = due.config();
    if (!retries.mayRetryAfter(due.attempts())) {
      meters.counter(NOTIFICATIONS, "outcome", "retries_exhausted").increment();
      return configs.settle(config.jobId(), config.id(), due.revision(), "gave up: " + why);
    }
    meters.counter(NOTIFICATIONS, "outcome", "retry").increment();
    Instant at =
        clock
            .instant()
            .plus(
                retries.delayAfter(due.attempts(), null, ThreadLocalRandom.current()::nextDouble));
    return configs.retryAt(config.jobId(), config.id(), due.revision(), at, why);
  }

  /** The push's body: the task as A2A shows it, in the state the pushed revision reached. */
  private String body(Job job, String state) {
    ObjectNode root = json.createObjectNode();
    ObjectNode task = root.putObject("task");
    task.put("id", job.id().toString());
    task.put("contextId", job.spec().teamId().toString());
    ObjectNode status = task.putObject("status");
    status.put("state", A2aTaskState.ofJob(state));
    status.put("timestamp", clock.instant().toString());
    String text = null;
    Question question = job.question();
    Outcome outcome = job.outcome();
    if (state.equals(JobState.WAITING_INPUT.wire()) && question != null) {
      text = question.content();
    } else if ((state.equals("failed")
            || state.equals("cancelled")
            || state.equals(JobState.INTERRUPTED.wire()))
        && outcome != null) {
      text = outcome.error();
    }
    if (text != null) {
      ObjectNode message = status.putObject("message");
      message.put("messageId", job.id() + "-push-" + state);
      message.put("role", "ROLE_AGENT");
      message.putArray("parts").addObject().put("text", text);
    }
    if (state.equals("completed") && outcome != null && outcome.answer() != null) {
      ObjectNode artifact = task.putArray("artifacts").addObject();
      artifact.put("artifactId", job.id() + "-answer");
      artifact.put("name", "answer");
      artifact.putArray("parts").addObject().put("text", outcome.answer());
    }
    return json.writeValueAsString(root);
  }
}
