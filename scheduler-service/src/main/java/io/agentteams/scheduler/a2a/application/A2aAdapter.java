package io.agentteams.scheduler.a2a.application;

import io.agentteams.scheduler.a2a.A2aProperties;
import io.agentteams.scheduler.a2a.client.A2aClient;
import io.agentteams.scheduler.a2a.client.A2aWire;
import io.agentteams.scheduler.a2a.domain.A2aFailure;
import io.agentteams.scheduler.a2a.domain.A2aFailure.Kind;
import io.agentteams.scheduler.a2a.domain.AgentCard;
import io.agentteams.scheduler.a2a.domain.TaskSnapshot;
import io.agentteams.scheduler.a2a.domain.TaskState;
import io.agentteams.scheduler.a2a.persistence.A2aTaskStore;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Question;
import io.agentteams.scheduler.job.domain.Usage;
import io.agentteams.scheduler.runtime.application.LeasedJob;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import io.agentteams.scheduler.runtime.application.WireMeters;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The A2A runtime's wire, plugged into the shared lifecycle ({@code RuntimeDispatcher} claims A2A
 * agents' jobs under the {@code a2a-runtime} lease, one replica per job). For each claimed job it:
 *
 * <ol>
 *   <li>reads the agent's card through the outbound guard, for its JSON-RPC interface and whether
 *       it streams;
 *   <li>in one committed transaction renews the job's lease and records the message about to be
 *       sent (its id is the job id, or the job id and admission for an answer) — so a replica that
 *       dies at any later point leaves a lease that lapses into a reconciliation that knows what
 *       was sent;
 *   <li>sends it with SendStreamingMessage when the card says the agent streams, else SendMessage
 *       (returning at once), in the member's conversation as the context; an owner's answer goes
 *       back on the same task;
 *   <li>follows the task by its stream, after a drop by GetTask then SubscribeToTask, or by GetTask
 *       polling, renewing the lease meanwhile, and maps its states to the job's: working is
 *       running, input-required waits for the owner, completed completes with the artifacts' text,
 *       failed and rejected fail with the reason, canceled cancels, and auth-required (or a
 *       401/403) disconnects the team with the reason, keeping the job;
 *   <li>when the outcome is unknown, the job keeps its slot as {@code unknown}, and the
 *       reconciliation asks the agent with GetTask (or, before the agent named its task, looks for
 *       the message among the context's tasks with ListTasks) — it never sends the message blindly
 *       again.
 * </ol>
 *
 * Jobs cancelled here are carried over to their agents with CancelTask by {@link #cancelPass()},
 * one of the runtime's chores.
 */
@Component
public class A2aAdapter implements RuntimeAdapter {

  private static final int CANCELS_PER_PASS = 100;
  private static final int MAX_DROPS = 5;

  /** The lease holder A2A offers name: the A2A runtime, whichever replica follows the job. */
  static final String HOLDER = "a2a-runtime";

  private static final List<String> METHODS =
      List.of(
          "AgentCard",
          "SendMessage",
          "SendStreamingMessage",
          "SubscribeToTask",
          "GetTask",
          "ListTasks",
          "CancelTask");
  private static final RuntimeProfile PROFILE =
      new RuntimeProfile(
          "a2a",
          HOLDER,
          "agentteams.scheduler.a2a.in.flight",
          "agentteams.scheduler.a2a.failures",
          "A2A jobs the runtime failed, left unknown or disconnected, by reason",
          List.of(
              "retries_exhausted",
              "unauthorized",
              "auth_required",
              "rejected",
              "guard",
              "unknown",
              "unreconcilable"),
          "a2a-record-housekeeping");

  private static final Logger log = LoggerFactory.getLogger(A2aAdapter.class);

  private final PushAgentStore agents;
  private final A2aTaskStore tasks;
  private final A2aClient client;
  private final A2aProperties properties;
  private final RuntimeSettings settings;
  private final Clock clock;
  private final MeterRegistry meters;
  private final WireMeters wire;

  public A2aAdapter(
      PushAgentStore agents,
      A2aTaskStore tasks,
      A2aClient client,
      A2aProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.agents = agents;
    this.tasks = tasks;
    this.client = client;
    this.properties = properties;
    this.settings = properties.settings();
    this.clock = clock;
    this.meters = meters;
    this.wire =
        new WireMeters(
            meters,
            "agentteams.scheduler.a2a.calls",
            "Calls to A2A agents, by method and how they ended",
            "agentteams.scheduler.a2a.call.latency",
            "How long an A2A call took until its answer (a stream: its first event)");
    // Every series exists from the start, so dashboards and alerts read zeros, not gaps.
    for (String method : METHODS) {
      calls(method, "ok");
      latency(method);
    }
  }

  @Override
  public RuntimeProfile profile() {
    return PROFILE;
  }

  @Override
  public RuntimeSettings settings() {
    return settings;
  }

  /** Carries cancels over to the agents every {@code poll-interval}. */
  @Override
  public List<Chore> chores() {
    return List.of(new Chore("a2a-cancel", properties.pollInterval(), this::cancelPass));
  }

  @Override
  public Mono<Void> run(LeasedJob job) {
    Offer offer = job.offer();
    AgentKey key = new AgentKey(offer.spec().ownerId(), offer.spec().target().agentId());
    return agents.endpoint(key, "a2a").flatMap(base -> run(job, base));
  }

  private Mono<Void> run(LeasedJob job, String base) {
    Offer offer = job.offer();
    UUID jobId = job.id();
    String contextId = offer.spec().target().conversationId();
    // One message per admission: its first is the job itself, later ones carry the owner's answers.
    int admission = offer.job().admissions();
    String messageId = admission <= 1 ? jobId.toString() : jobId + "-" + admission;
    return timed("AgentCard", client.card(base))
        .flatMap(
            card ->
                begin(job, contextId, messageId)
                    .flatMap(prior -> exchange(job, card, contextId, messageId, prior)))
        .onErrorResume(A2aFailure.class, failure -> failed(job, failure));
  }

  /** Renews the lease and records the message in one transaction, before anything leaves. */
  private Mono<A2aTaskStore.Prior> begin(LeasedJob job, String contextId, String messageId) {
    return job.begin(tasks.recordMessage(job.id(), contextId, messageId, clock.instant()));
  }

  private Mono<Void> exchange(
      LeasedJob job, AgentCard card, String contextId, String messageId, A2aTaskStore.Prior prior) {
    Offer offer = job.offer();
    String taskId = prior.taskId();
    if (messageId.equals(prior.previousMessageId())) {
      // An earlier attempt of this message may have reached the agent: ask, never resend blindly.
      if (taskId != null) {
        return fromGetTask(job, card, taskId, 0);
      }
      return findSent(job, card, contextId, messageId);
    }
    if (offer.resumeAnswer() != null && taskId != null) {
      // The owner's answer goes back on the task that asked. Its stream may start with the task or
      // straight with a status update (the Python SDK's server does): the task is known, so an
      // update applies to it at once.
      TaskSnapshot asking =
          new TaskSnapshot(
              taskId, contextId, TaskState.INPUT_REQUIRED, null, List.of(), Usage.NONE);
      return send(
          job,
          card,
          client.messageParams(messageId, contextId, taskId, answerText(offer)),
          asking,
          1);
    }
    return send(
        job, card, client.messageParams(messageId, contextId, null, offer.spec().input()), null, 1);
  }

  /** The message left before but no task was recorded: looks for it among the context's tasks. */
  private Mono<Void> findSent(LeasedJob job, AgentCard card, String contextId, String messageId) {
    Offer offer = job.offer();
    return timed(
            "ListTasks",
            client.call(card.interfaceUrl(), "ListTasks", client.listParams(contextId)))
        .flatMap(
            result -> {
              for (JsonNode task : result.path("tasks")) {
                if (A2aWire.historyHolds(task, messageId)) {
                  return follow(job, card, A2aWire.task(task), 0);
                }
              }
              // The agent holds no task with this message: it never arrived, so it is sent now.
              return send(
                  job,
                  card,
                  client.messageParams(
                      messageId,
                      contextId,
                      null,
                      offer.resumeAnswer() == null ? offer.spec().input() : answerText(offer)),
                  null,
                  1);
            })
        .onErrorResume(
            A2aFailure.class,
            failure ->
                failure.kind() == Kind.UNSUPPORTED
                    ? job.fail(
                        "unreconcilable",
                        "the A2A message's outcome is unknown and the agent cannot list its tasks"
                            + " to find it; it is not sent again")
                    : Mono.error(failure));
  }

  /**
   * Sends the message and follows what it started.
   *
   * @param known the task the message continues, as it stood, or null for a new one
   */
  private Mono<Void> send(
      LeasedJob job, AgentCard card, ObjectNode params, @Nullable TaskSnapshot known, int attempt) {
    Mono<Void> sent;
    if (card.streaming()) {
      sent =
          followStream(
              job,
              card,
              timedStream(
                  "SendStreamingMessage",
                  client.stream(card.interfaceUrl(), "SendStreamingMessage", params)),
              known,
              0);
    } else {
      ObjectNode configured = params.deepCopy();
      configured.putObject("configuration").put("returnImmediately", true);
      sent =
          timed("SendMessage", client.call(card.interfaceUrl(), "SendMessage", configured))
              .flatMap(result -> follow(job, card, A2aWire.apply(null, result), 0));
    }
    return sent.onErrorResume(
        A2aFailure.class,
        failure -> {
          if (failure.kind() != Kind.RETRYABLE) {
            return Mono.error(failure);
          }
          return job.retry(
              attempt,
              null,
              () ->
                  job.renew()
                      .flatMap(
                          renewed ->
                              renewed ? send(job, card, params, known, attempt + 1) : Mono.empty()),
              () ->
                  "the A2A message failed after " + attempt + " attempts: " + failure.getMessage());
        });
  }

  /**
   * Follows a stream of results. A stream that ends (or breaks) before the task ended or stopped
   * for input is picked up again from GetTask, so no state is missed.
   */
  private Mono<Void> followStream(
      LeasedJob job,
      AgentCard card,
      Flux<JsonNode> results,
      @Nullable TaskSnapshot last,
      int drops) {
    AtomicReference<@Nullable TaskSnapshot> seen = new AtomicReference<>(last);
    AtomicBoolean settled = new AtomicBoolean();
    Mono<Void> following =
        results
            .concatMap(
                result -> {
                  TaskSnapshot before = seen.get();
                  TaskSnapshot now = A2aWire.apply(before, result);
                  seen.set(now);
                  return observe(job, before, now);
                })
            .takeUntil(done -> done)
            .doOnNext(settled::set)
            .then(
                Mono.defer(
                    () ->
                        settled.get()
                            ? Mono.<Void>empty()
                            : dropped(job, card, seen.get(), drops, "the stream ended")))
            .onErrorResume(
                A2aFailure.class,
                failure -> {
                  TaskSnapshot known = seen.get();
                  if (known == null || known.taskId() == null) {
                    return Mono.error(failure);
                  }
                  return dropped(job, card, known, drops, failure.getMessage());
                });
    return job.withHeartbeats(following);
  }

  /** A stream dropped: the task is read again and followed on. */
  private Mono<Void> dropped(
      LeasedJob job, AgentCard card, @Nullable TaskSnapshot known, int drops, String why) {
    if (known == null || known.taskId() == null) {
      return Mono.error(
          new A2aFailure(Kind.UNKNOWN, why + " before the agent named the message's task"));
    }
    if (drops >= MAX_DROPS) {
      return Mono.error(
          new A2aFailure(Kind.UNKNOWN, "the task's stream dropped " + drops + " times: " + why));
    }
    log.debug("job {}: task stream dropped ({}); reading the task again", job.id(), why);
    return fromGetTask(job, card, known.taskId(), drops + 1);
  }

  /** Reads the task with GetTask and follows it on from there. */
  private Mono<Void> fromGetTask(LeasedJob job, AgentCard card, String taskId, int drops) {
    return timed("GetTask", client.call(card.interfaceUrl(), "GetTask", client.taskParams(taskId)))
        .flatMap(task -> follow(job, card, A2aWire.task(task), drops));
  }

  /**
   * Follows a task from a snapshot: done if it ended or stopped; otherwise by SubscribeToTask when
   * the agent streams, else by GetTask polling.
   */
  private Mono<Void> follow(LeasedJob job, AgentCard card, TaskSnapshot snapshot, int drops) {
    return observe(job, null, snapshot)
        .flatMap(
            done -> {
              if (done || snapshot.taskId() == null) {
                return Mono.empty();
              }
              if (card.streaming()) {
                return followStream(
                    job,
                    card,
                    timedStream(
                        "SubscribeToTask",
                        client.stream(
                            card.interfaceUrl(),
                            "SubscribeToTask",
                            client.taskParams(snapshot.taskId()))),
                    snapshot,
                    drops);
              }
              return job.withHeartbeats(poll(job, card, snapshot));
            });
  }

  private Mono<Void> poll(LeasedJob job, AgentCard card, TaskSnapshot last) {
    String taskId = last.taskId();
    if (taskId == null) {
      return Mono.empty();
    }
    return Mono.delay(properties.taskPollInterval())
        .then(
            timed(
                "GetTask", client.call(card.interfaceUrl(), "GetTask", client.taskParams(taskId))))
        .flatMap(
            task -> {
              TaskSnapshot now = A2aWire.task(task);
              return observe(job, last, now)
                  .flatMap(done -> done ? Mono.<Void>empty() : poll(job, card, now));
            });
  }

  /**
   * What a task snapshot means for the job: records the task, reports its state, and says whether
   * following is over (the task ended or stopped, or the job moved on).
   */
  private Mono<Boolean> observe(LeasedJob job, @Nullable TaskSnapshot before, TaskSnapshot now) {
    Mono<Void> recorded =
        now.taskId() != null
                && (before == null
                    || before.state() != now.state()
                    || !now.taskId().equals(before.taskId()))
            ? tasks.recordTask(job.id(), now.taskId(), now.state().wire(), clock.instant())
            : Mono.empty();
    String token = job.token();
    String agent = job.offer().spec().target().agentId();
    if (stillAsking(job.offer(), before, now)) {
      // The task as it was before the owner's answer arrived: not a new question.
      return recorded.thenReturn(false);
    }
    Mono<Boolean> reported =
        switch (now.state()) {
          case SUBMITTED, WORKING, UNSPECIFIED ->
              before != null && before.state() == now.state()
                  ? Mono.just(false)
                  : job.report(new WorkerReport.Started(token, now.taskId(), now.usage()))
                      .map(ok -> !ok);
          case INPUT_REQUIRED ->
              job.report(
                      new WorkerReport.InputRequired(
                          token,
                          new Question(
                              InputKind.CLARIFICATION,
                              now.statusText() == null
                                  ? "The agent asks for more input."
                                  : now.statusText()),
                          now.taskId()))
                  .thenReturn(true);
          case AUTH_REQUIRED ->
              job.refusedAccess(
                      "auth_required",
                      "A2A agent '"
                          + agent
                          + "' asks for authentication"
                          + (now.statusText() == null ? "" : ": " + now.statusText()))
                  .thenReturn(true);
          case COMPLETED ->
              job.report(new WorkerReport.Completed(token, now.answer(), now.usage(), now.taskId()))
                  .thenReturn(true);
          case FAILED ->
              job.report(
                      new WorkerReport.Failed(
                          token,
                          "the A2A agent failed the task"
                              + (now.statusText() == null ? "" : ": " + now.statusText()),
                          now.usage(),
                          now.taskId()))
                  .thenReturn(true);
          case REJECTED ->
              job.report(
                      new WorkerReport.Failed(
                          token,
                          "the A2A agent rejected the task"
                              + (now.statusText() == null ? "" : ": " + now.statusText()),
                          now.usage(),
                          now.taskId()))
                  .thenReturn(true);
          case CANCELED ->
              job.report(
                      new WorkerReport.Cancelled(
                          token,
                          "the A2A agent canceled the task"
                              + (now.statusText() == null ? "" : ": " + now.statusText())))
                  .thenReturn(true);
        };
    return recorded.then(reported);
  }

  /**
   * Whether a snapshot of a resumed job still shows the question the owner answered: an agent
   * answering a follow-up message starts its stream with the task as it was, and a polled task
   * shows it until the agent takes the answer up.
   */
  private static boolean stillAsking(Offer offer, @Nullable TaskSnapshot before, TaskSnapshot now) {
    Question answered = offer.resumeQuestion();
    return answered != null
        && offer.resumeAnswer() != null
        && now.state() == TaskState.INPUT_REQUIRED
        && answered.content().equals(now.statusText())
        && (before == null || before.state() == TaskState.INPUT_REQUIRED);
  }

  /** How a call that returned no result ends the job's turn. */
  private Mono<Void> failed(LeasedJob job, A2aFailure failure) {
    return switch (failure.kind()) {
      case REFUSED ->
          job.fail("guard", "the outbound guard refused the A2A agent: " + failure.getMessage());
      case UNAUTHORIZED ->
          job.refusedAccess(
              "unauthorized",
              "A2A agent '"
                  + job.offer().spec().target().agentId()
                  + "' refused our call ("
                  + failure.getMessage()
                  + "): it no longer accepts this team's messages");
      case REJECTED, TASK_NOT_FOUND, UNSUPPORTED ->
          job.fail("rejected", "the A2A agent refused: " + failure.getMessage());
      case RETRYABLE, UNKNOWN -> job.unknown(failure.getMessage());
    };
  }

  private static String answerText(Offer offer) {
    return offer.resumeAnswer() == null ? "" : offer.resumeAnswer().content();
  }

  /**
   * One pass of carrying cancels over: every task of a job cancelled here that its agent was not
   * yet asked to cancel gets CancelTask (idempotent at the agent, so two replicas asking at once do
   * no harm). A task the agent no longer knows, or can no longer cancel, needs nothing more.
   */
  public Mono<Void> cancelPass() {
    return tasks
        .toCancel(CANCELS_PER_PASS)
        .concatMap(
            task ->
                agents
                    .endpoint(new AgentKey(task.ownerId(), task.agentId()), "a2a")
                    .flatMap(base -> timed("AgentCard", client.card(base)))
                    .flatMap(
                        card ->
                            timed(
                                "CancelTask",
                                client.call(
                                    card.interfaceUrl(),
                                    "CancelTask",
                                    client.taskParams(task.taskId()))))
                    .then(tasks.cancelSent(task.jobId(), clock.instant()))
                    .onErrorResume(
                        A2aFailure.class,
                        failure ->
                            failure.kind() == Kind.TASK_NOT_FOUND
                                    || failure.kind() == Kind.REJECTED
                                    || failure.kind() == Kind.UNSUPPORTED
                                ? tasks.cancelSent(task.jobId(), clock.instant())
                                : Mono.empty()))
        .then()
        .onErrorResume(
            e -> {
              log.warn("an A2A cancel pass failed; the next one retries: {}", e.toString());
              return Mono.empty();
            });
  }

  private <T> Mono<T> timed(String method, Mono<T> call) {
    return Mono.defer(
        () -> {
          Timer.Sample sample = Timer.start(meters);
          return call.doOnSuccess(
                  done -> {
                    sample.stop(latency(method));
                    calls(method, "ok").increment();
                  })
              .doOnError(
                  e -> {
                    sample.stop(latency(method));
                    calls(method, outcome(e)).increment();
                  });
        });
  }

  private Flux<JsonNode> timedStream(String method, Flux<JsonNode> stream) {
    return Flux.defer(
        () -> {
          Timer.Sample sample = Timer.start(meters);
          AtomicBoolean first = new AtomicBoolean(true);
          return stream
              .doOnNext(
                  event -> {
                    // A stream's latency is the time to its first event.
                    if (first.compareAndSet(true, false)) {
                      sample.stop(latency(method));
                    }
                  })
              .doOnComplete(() -> calls(method, "ok").increment())
              .doOnError(e -> calls(method, outcome(e)).increment());
        });
  }

  private static String outcome(Throwable e) {
    return e instanceof A2aFailure failure ? failure.kind().word() : "error";
  }

  private Counter calls(String method, String outcome) {
    return wire.count("method", method, "outcome", outcome);
  }

  private Timer latency(String method) {
    return wire.latency("method", method);
  }

  /** Forgets task records of jobs that ended long enough ago. */
  @Override
  public Mono<Long> forgetFinished(Instant endedBefore, int max) {
    return tasks.forgetFinished(endedBefore, max);
  }
}
