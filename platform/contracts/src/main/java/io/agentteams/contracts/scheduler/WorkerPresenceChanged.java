package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;
import java.util.List;

/**
 * A pull worker of an agent opened or closed its job stream (or its presence lapsed because its
 * replica died), published to every team of the owner that has the agent as a member, so that what
 * shows a team's roster learns of it at once. What is connected now is the scheduler's to say
 * ({@code GET /api/v1/workers}); this says only that it may have changed.
 *
 * @param teamId the team
 * @param agentId the agent whose worker came or went
 * @param boundMembers the team's members bound to that agent
 * @param connected whether any worker of the agent held a stream just after the change
 * @param streams how many of its streams were open just after the change
 */
public record WorkerPresenceChanged(
    String teamId, String agentId, List<String> boundMembers, boolean connected, int streams)
    implements EventPayload {

  public static final String TYPE = "WorkerPresenceChanged";

  public WorkerPresenceChanged {
    boundMembers = List.copyOf(boundMembers);
  }

  @Override
  public String eventType() {
    return TYPE;
  }
}
