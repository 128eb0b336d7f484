package io.agentteams.contracts.team;

import java.util.List;

/** A team was created with its full roster; provisioning of its members begins. */
public record TeamCreated(
    String teamId,
    String ownerId,
    String name,
    String goal,
    String status,
    List<RosterMember> members,
    long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "TeamCreated";

  public TeamCreated {
    members = List.copyOf(members);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
