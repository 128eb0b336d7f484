package io.agentteams.taskboard.task.domain;

/** Who acts on the board, as the team's roster sees them. */
public sealed interface Actor {

  /** How events name the actor: the member's name, or {@code owner} for the team's owner. */
  String label();

  /** A member of the team; {@code lead} when the roster makes them the lead. */
  record Member(String name, boolean lead) implements Actor {
    @Override
    public String label() {
      return name;
    }
  }

  /** The person who owns the team: reads the board and approves plans. */
  record TeamOwner(String ownerId) implements Actor {
    @Override
    public String label() {
      return "owner";
    }
  }
}
