package io.agentteams.sdk.worker;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.Backoff;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.problem.AgentTeamsException;
import io.agentteams.sdk.problem.ConflictException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The worker's reports of its jobs ({@code started}, heartbeats, how a job ended, {@code released})
 * under each job's current lease, retried with back-off while that may still help.
 */
final class JobReports {

  /** How a report went. */
  enum Outcome {
    /** The scheduler took the report. */
    DONE,
    /** A newer offer replaced the lease the report named. */
    STALE,
    /** The job is in a state that takes no such report (cancelled, already ended). */
    ENDED,
    /** The report was refused for good, or the worker stopped trying. */
    GAVE_UP
  }

  /** The answer to a report. */
  record ReportAnswer(
      UUID jobId,
      String state,
      long revision,
      @Nullable Instant leaseExpiresAt,
      @Nullable String memberToken,
      @Nullable Instant memberTokenExpiresAt) {}

  /** A report of how a job ended: its type and body. */
  record Ending(String type, Map<String, Object> body) {

    static Ending of(JobResult result) {
      Map<String, Object> body = new LinkedHashMap<>();
      if (result instanceof JobResult.Completed completed) {
        body.put("answer", completed.answer());
        body.put("usage", usage(completed.usage()));
        return new Ending("completed", body);
      }
      if (result instanceof JobResult.Failed failed) {
        body.put("error", failed.error());
        body.put("usage", usage(failed.usage()));
        return new Ending("failed", body);
      }
      JobResult.InputRequired asked = (JobResult.InputRequired) result;
      Map<String, Object> question = new LinkedHashMap<>();
      if (asked.clarification() != null) {
        question.put("kind", "clarification");
        question.put("text", asked.clarification());
      } else {
        question.put("kind", "interrupt");
        question.put("payload", asked.interrupt());
      }
      body.put("question", question);
      return new Ending("input_required", body);
    }
  }

  private final HttpTransport http;
  private final String workerId;
  private final Backoff backoff;
  private final WorkerListener listener;
  private final BooleanSupplier stopped;

  JobReports(
      HttpTransport http,
      String workerId,
      Backoff backoff,
      WorkerListener listener,
      BooleanSupplier stopped) {
    this.http = http;
    this.workerId = workerId;
    this.backoff = backoff;
    this.listener = listener;
    this.stopped = stopped;
  }

  static Map<String, Object> usage(Usage usage) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("tokens", usage.tokens());
    wire.put("cost_units", usage.costUnits());
    wire.put("input_tokens", usage.inputTokens());
    wire.put("output_tokens", usage.outputTokens());
    if (usage.model() != null) {
      wire.put("model", usage.model());
    }
    return wire;
  }

  /** Reports a job's {@code type} under its current lease; with {@code retry}, until it tells. */
  Outcome report(Execution execution, String type, Map<String, Object> extra, boolean retry) {
    UUID jobId = execution.jobId();
    int attempt = 0;
    while (true) {
      if (execution.abandoned() && !"released".equals(type)) {
        return Outcome.GAVE_UP;
      }
      if (execution.interrupted()) {
        return Outcome.ENDED;
      }
      String lease = execution.leaseToken();
      Map<String, Object> body = new LinkedHashMap<>(extra);
      body.put("type", type);
      body.put("lease_token", lease);
      body.put("run_id", workerId);
      try {
        ReportAnswer answer =
            http.call(
                "POST", ApiPath.of("/api/v1/jobs/{}/events", jobId), body, ReportAnswer.class);
        if (answer != null) {
          execution.refreshMemberToken(answer.memberToken());
          if (("heartbeat".equals(type) || "started".equals(type))
              && ("failed".equals(answer.state()) || "cancelled".equals(answer.state()))) {
            // The report itself ended the job (a budget with no room for its usage): the turn
            // stops, as with any job the scheduler ended.
            execution.cancel();
          }
        }
        listener.reported(jobId, type);
        return Outcome.DONE;
      } catch (ConflictException e) {
        if (e.is("stale-lease")) {
          if (!lease.equals(execution.leaseToken())) {
            continue;
          }
          listener.reportFailed(jobId, type, e, false);
          return Outcome.STALE;
        }
        if (interruptedState(e)) {
          // The interrupt's stream event was missed (a reconnect): the refusal says it.
          if (execution.interrupt()) {
            listener.interrupted(jobId);
          }
        } else if ("heartbeat".equals(type) || "started".equals(type)) {
          execution.cancel();
        }
        listener.reportFailed(jobId, type, e, false);
        return Outcome.ENDED;
      } catch (AgentTeamsException e) {
        boolean again = retry && e.retryable() && !stopped.getAsBoolean();
        listener.reportFailed(jobId, type, e, again);
        if (!again) {
          return Outcome.GAVE_UP;
        }
      }
      if (!Pause.waitFor(backoff.delay(attempt++))) {
        return Outcome.GAVE_UP;
      }
    }
  }

  private static boolean interruptedState(ConflictException refused) {
    return refused
        .problem()
        .property("state")
        .map(state -> "interrupted".equals(state.asString("")))
        .orElse(false);
  }
}
