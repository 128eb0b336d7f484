package io.agentteams.agents.scripted;

import io.agentteams.sdk.jobs.Usage;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobHandler;
import io.agentteams.sdk.worker.JobResult;
import io.agentteams.sdk.worker.ReconcilePolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A team member that runs a {@link Script}: the work steps for a request or hand-off, the receipt
 * steps for a receipt. Its steps are idempotent, so it reconciles a lost run by running the script
 * again ({@link ReconcilePolicy#RESUME}): what the first run did is found in the team's records and
 * not done twice.
 */
public final class ScriptedAgent implements JobHandler {

  private final Script script;
  private final Map<String, String> values;

  /**
   * @param script what the role does
   * @param values what the script's texts are filled with ({@code {product}}, ...)
   */
  public ScriptedAgent(Script script, Map<String, String> values) {
    this.script = script;
    this.values = Map.copyOf(values);
  }

  @Override
  public JobResult handle(JobContext job) throws Exception {
    Turn turn = new Turn(job, values);
    List<Step> steps = job.offer().isReceipt() ? script.onReceipt() : script.onWork();
    for (Step step : steps) {
      if (job.cancelled()) {
        return JobResult.failed("cancelled by the owner", Usage.NONE);
      }
      if (job.interrupted()) {
        // The job ended interrupted: this result is not reported; the turn just stops here.
        return JobResult.failed("interrupted", Usage.NONE);
      }
      Optional<JobResult> ended = step.run(turn);
      if (ended.isPresent()) {
        return ended.get();
      }
      turn.next();
    }
    String answer = turn.answer();
    return JobResult.completed(answer == null ? "done" : answer);
  }

  @Override
  public ReconcilePolicy reconcilePolicy() {
    return ReconcilePolicy.RESUME;
  }
}
