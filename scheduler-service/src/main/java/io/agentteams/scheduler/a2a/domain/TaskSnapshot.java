package io.agentteams.scheduler.a2a.domain;

import io.agentteams.scheduler.budget.domain.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the runtime knows of an A2A task: read from a Task object, then moved on by the status and
 * artifact updates of a stream. The agent's text is data: it becomes a job's answer, question or
 * failure reason, never an instruction to anyone.
 *
 * @param taskId the agent's task id; null when the agent answered with a message and no task
 * @param contextId the task's context, the member's conversation
 * @param state the task's state
 * @param statusText the text of the status message, if it has one (a question, a reason)
 * @param artifacts the task's artifacts so far, in order
 * @param usage the usage the agent reported so far in {@code metadata.usage} of the task, its
 *     status messages or artifacts (totals, the latest model named); none when it reported none
 */
public record TaskSnapshot(
    @Nullable String taskId,
    String contextId,
    TaskState state,
    @Nullable String statusText,
    List<Artifact> artifacts,
    Usage usage) {

  /**
   * One artifact's text parts, joined.
   *
   * @param id the artifact id
   * @param text its text
   */
  public record Artifact(String id, String text) {}

  public TaskSnapshot {
    Objects.requireNonNull(contextId, "contextId");
    Objects.requireNonNull(state, "state");
    artifacts = List.copyOf(artifacts);
    Objects.requireNonNull(usage, "usage");
  }

  /** The task, with usage it reported so far (a total: each measure only grows). */
  public TaskSnapshot using(Usage reported) {
    return new TaskSnapshot(
        taskId, contextId, state, statusText, artifacts, usage.atLeast(reported));
  }

  /** The task after a status update. */
  public TaskSnapshot withStatus(TaskState newState, @Nullable String text) {
    return new TaskSnapshot(taskId, contextId, newState, text, artifacts, usage);
  }

  /**
   * The task after an artifact update: a new artifact is added; an existing one is replaced, or
   * appended to when {@code append}.
   */
  public TaskSnapshot withArtifact(String id, String text, boolean append) {
    List<Artifact> changed = new ArrayList<>(artifacts);
    for (int i = 0; i < changed.size(); i++) {
      if (changed.get(i).id().equals(id)) {
        changed.set(i, new Artifact(id, (append ? changed.get(i).text() : "") + text));
        return new TaskSnapshot(taskId, contextId, state, statusText, changed, usage);
      }
    }
    changed.add(new Artifact(id, text));
    return new TaskSnapshot(taskId, contextId, state, statusText, changed, usage);
  }

  /** The job's answer: the artifacts' text, or else the status message's. */
  public String answer() {
    StringBuilder text = new StringBuilder();
    for (Artifact artifact : artifacts) {
      if (!artifact.text().isEmpty()) {
        if (!text.isEmpty()) {
          text.append("\n\n");
        }
        text.append(artifact.text());
      }
    }
    if (text.isEmpty() && statusText != null) {
      return statusText;
    }
    return text.toString();
  }
}
