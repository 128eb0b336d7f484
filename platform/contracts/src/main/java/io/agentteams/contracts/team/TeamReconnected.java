package io.agentteams.contracts.team;

import java.util.List;

/**
 * A reconnect ensured every member's conversation again: the team is {@code ready}.
 *
 * @param teamId the team
 * @param recreatedMembers members whose conversation was missing and was recreated with the
 *     recorded binding; every other member's conversation was left unchanged
 * @param teamRevision the team's revision after this change
 */
public record TeamReconnected(String teamId, List<String> recreatedMembers, long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "TeamReconnected";

  public TeamReconnected {
    recreatedMembers = List.copyOf(recreatedMembers);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
