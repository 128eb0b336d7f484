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
import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.dispatch.domain.AgentKey;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.runtime.application.LeasedJob;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import io.agentteams.scheduler.runtime.persistence.PushAgentStore;
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
  private final A2aCallMeters calls;
  private final A2aTaskStates states;

  public A2aAdapter(
      PushAgentStore agents,
      A2aTaskStore tasks,
      A2aClient client,
      A2aProperties properties,
      Clock clock,
      A2aCallMeters calls) {
    this.agents = agents;
    this.tasks = tasks;
    this.client = client;
    this.properties = properties;
    this.settings = properties.settings();
    this.clock = clock;
    this.calls = calls;
    this.states = new A2aTaskStates(tasks, clock);
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
    return calls
        .timed("AgentCard", client.card(base))
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
    return calls
        .timed(
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
              calls.timedStream(
                  "SendStreamingMessage",
                  client.stream(card.interfaceUrl(), "SendStreamingMessage", params)),
              known,
              0);
    } else {
      ObjectNode configured = params.deepCopy();
      configured.putObject("configuration").put("returnImmediately", true);
      sent =
          calls
              .timed("SendMessage", client.call(card.interfaceUrl(), "SendMessage", configured))
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
                  return states.observe(job, before, now);
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
    return calls
        .timed("GetTask", client.call(card.interfaceUrl(), "GetTask", client.taskParams(taskId)))
        .flatMap(task -> follow(job, card, A2aWire.task(task), drops));
  }

  /**
   * Follows a task from a snapshot: done if it ended or stopped; otherwise by SubscribeToTask when
   * the agent streams, else by GetTask polling.
   */
  private Mono<Void> follow(LeasedJob job, AgentCard card, TaskSnapshot snapshot, int drops) {
    return states
        .observe(job, null, snapshot)
        .flatMap(
            done -> {
              if (done || snapshot.taskId() == null) {
                return Mono.empty();
              }
              if (card.streaming()) {
                return followStream(
                    job,
                    card,
                    calls.timedStream(
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
            calls.timed(
                "GetTask", client.call(card.interfaceUrl(), "GetTask", client.taskParams(taskId))))
        .flatMap(
            task -> {
              TaskSnapshot now = A2aWire.task(task);
              return states
                  .observe(job, last, now)
                  .flatMap(done -> done ? Mono.<Void>empty() : poll(job, card, now));
            });
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
                    .flatMap(base -> calls.timed("AgentCard", client.card(base)))
                    .flatMap(
                        card ->
                            calls.timed(
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

  /** Forgets task records of jobs that ended long enough ago. */
  @Override
  public Mono<Long> forgetFinished(Instant endedBefore, int max) {
    return tasks.forgetFinished(endedBefore, max);
  }
}
