package io.agentteams.scheduler.dispatch.domain;

import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobChange;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.Question;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What an agent's runtime reports about a job it holds a lease on. Whatever the runtime (a pull
 * worker, a webhook callback, an A2A task update), its reports come in as one of these.
 */
public sealed interface WorkerReport {

  /** The lease token of the offer the report answers. */
  String leaseToken();

  /** Applies the report to the job; null when it changed no state. */
  @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits);

  /** The run started (or, answering a reconciliation offer, is running), with its usage so far. */
  record Started(String leaseToken, @Nullable String runId, Usage usage) implements WorkerReport {

    public Started(String leaseToken, @Nullable String runId) {
      this(leaseToken, runId, Usage.NONE);
    }

    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      JobChange change = job.start(leaseToken, runId, now);
      job.reportUsage(usage);
      return change;
    }
  }

  /** The run goes on, having used {@code usage} so far; renews the lease. */
  record Heartbeat(String leaseToken, @Nullable String runId, Usage usage) implements WorkerReport {

    public Heartbeat(String leaseToken, @Nullable String runId) {
      this(leaseToken, runId, Usage.NONE);
    }

    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      JobChange change = job.heartbeat(leaseToken, runId, now);
      job.reportUsage(usage);
      return change;
    }
  }

  /** The run stopped with a question for the owner. */
  record InputRequired(String leaseToken, Question question, @Nullable String runId)
      implements WorkerReport {
    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      return job.requireInput(
          leaseToken, limits.checkQuestion(question.kind(), question.content()), runId, now);
    }
  }

  /**
   * The runtime gives the job back (it is shutting down): not started, it is offered again;
   * started, it is left to reconciliation at once.
   */
  record Released(String leaseToken) implements WorkerReport {
    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      return job.release(leaseToken, now);
    }
  }

  /** The run finished with an answer. */
  record Completed(String leaseToken, String answer, Usage usage, @Nullable String runId)
      implements WorkerReport {
    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      return job.complete(leaseToken, answer, limits.resultMaxBytes(), usage, runId, now);
    }
  }

  /** The run failed. */
  record Failed(String leaseToken, String error, Usage usage, @Nullable String runId)
      implements WorkerReport {
    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      return job.fail(leaseToken, error, limits.resultMaxBytes(), usage, runId, now);
    }
  }

  /** The runtime says the job was cancelled on its side (an A2A task canceled by its agent). */
  record Cancelled(String leaseToken, String reason) implements WorkerReport {
    @Override
    public @Nullable JobChange applyTo(Job job, Instant now, JobLimits limits) {
      return job.cancelledByRuntime(leaseToken, reason, limits.resultMaxBytes(), now);
    }
  }
}
