package io.agentteams.scheduler.a2a.application;

import io.agentteams.scheduler.a2a.domain.TaskSnapshot;
import io.agentteams.scheduler.a2a.domain.TaskState;
import io.agentteams.scheduler.a2a.persistence.A2aTaskStore;
import io.agentteams.scheduler.dispatch.domain.Offer;
import io.agentteams.scheduler.dispatch.domain.WorkerReport;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Question;
import io.agentteams.scheduler.runtime.application.LeasedJob;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * How the A2A agent's task states become the job's: each snapshot of a followed task is recorded
 * and reported as a worker would (working is running, input-required waits for the owner, completed
 * completes, failed and rejected fail, canceled cancels, auth-required disconnects the team).
 */
final class A2aTaskStates {

  private final A2aTaskStore tasks;
  private final Clock clock;

  A2aTaskStates(A2aTaskStore tasks, Clock clock) {
    this.tasks = tasks;
    this.clock = clock;
  }

  /**
   * What a task snapshot means for the job: records the task, reports its state, and says whether
   * following is over (the task ended or stopped, or the job moved on).
   */
  Mono<Boolean> observe(LeasedJob job, @Nullable TaskSnapshot before, TaskSnapshot now) {
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
}
