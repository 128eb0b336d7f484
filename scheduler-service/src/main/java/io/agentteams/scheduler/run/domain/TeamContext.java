package io.agentteams.scheduler.run.domain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a task's member is told of its team besides the run: the team's goal, its public state (the
 * current entries, most recently changed first) and its recent messages (oldest first), each
 * already cut to the configured bounds.
 *
 * @param goal the team's goal, if the scheduler has learned it
 * @param state current public state entries
 * @param messages recent messages
 */
public record TeamContext(
    @Nullable String goal, List<StateLine> state, List<MessageLine> messages) {

  /** No context known. */
  public static final TeamContext NONE = new TeamContext(null, List.of(), List.of());

  public TeamContext {
    state = List.copyOf(state);
    messages = List.copyOf(messages);
  }

  /** One public state entry. */
  public record StateLine(String kind, String title, String content) {}

  /** One message, by whom and when. */
  public record MessageLine(String sender, String text, String sentAt) {}

  public boolean isEmpty() {
    return (goal == null || goal.isBlank()) && state.isEmpty() && messages.isEmpty();
  }
}
