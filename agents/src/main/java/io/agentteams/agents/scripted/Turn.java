package io.agentteams.agents.scripted;

import io.agentteams.sdk.tasks.Task;
import io.agentteams.sdk.tools.MemberTools;
import io.agentteams.sdk.worker.JobContext;
import io.agentteams.sdk.worker.JobOffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One run of a script for one job: the job, the member tools, the values texts are filled with, and
 * the task the member works on. Ids of everything a step writes derive from the job and the step,
 * so running the same job's script again writes nothing twice.
 */
public final class Turn {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  private final JobContext job;
  private final Map<String, String> values = new HashMap<>();
  private int step;
  private @Nullable Task task;
  private @Nullable String answer;

  Turn(JobContext job, Map<String, String> seeded) {
    this.job = job;
    values.putAll(seeded);
    JobOffer offer = job.offer();
    values.put("member", offer.member());
    values.put("requester", offer.requester());
    values.put("input", offer.input());
    if (offer.isReceipt()) {
      values.put("receipt", offer.input());
    }
    if (offer.resume() != null && offer.resume().answer() != null) {
      values.put("answer", offer.resume().answer());
    }
  }

  /** The job's context: its offer and whether the run is a reconciliation. */
  public JobContext job() {
    return job;
  }

  /** The member's tools. */
  public MemberTools tools() {
    return job.tools();
  }

  /** The member running the script. */
  public String member() {
    return job.offer().member();
  }

  /** A key unique to this job and step, for request ids, client message ids, idempotency keys. */
  public String key() {
    return job.offer().jobId() + ":" + step;
  }

  /** The text with {@code {name}} placeholders filled from the script's values. */
  public String fill(String template) {
    Matcher matcher = PLACEHOLDER.matcher(template);
    StringBuilder filled = new StringBuilder();
    while (matcher.find()) {
      String value = values.getOrDefault(matcher.group(1), matcher.group(0));
      matcher.appendReplacement(filled, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(filled);
    return filled.toString();
  }

  /** Sets a value later texts may use. */
  public void set(String name, String value) {
    values.put(name, value);
  }

  /** A value, if set. */
  public Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /** The task the member works on now (the last claimed). */
  public Optional<Task> task() {
    return Optional.ofNullable(task);
  }

  void task(@Nullable Task current) {
    this.task = current;
  }

  /** The task a plan key became, as the board shows it now. */
  public Optional<Task> planned(String planKey) {
    List<Task> board = tools().listTasks(null, null);
    return board.stream().filter(t -> planKey.equals(t.planKey())).findFirst();
  }

  void next() {
    step++;
  }

  void answer(String text) {
    this.answer = text;
  }

  @Nullable String answer() {
    return answer;
  }
}
