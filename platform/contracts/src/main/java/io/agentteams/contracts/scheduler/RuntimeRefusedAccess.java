package io.agentteams.contracts.scheduler;

import io.agentteams.contracts.EventPayload;

/**
 * A push runtime refused a job's push for want of access (401 or 403): the team must be {@code
 * disconnected} with the reason until its owner reconnects it. The job keeps its slot, unknown, and
 * is reconciled after the reconnect.
 *
 * @param jobId the job whose push was refused
 * @param teamId its team
 * @param member the member it was for
 * @param agentId the agent that refused
 * @param reason what the agent answered, for the team's status reason
 * @param jobRevision the job's revision after this change
 */
public record RuntimeRefusedAccess(
    String jobId, String teamId, String member, String agentId, String reason, long jobRevision)
    implements EventPayload {

  public static final String TYPE = "RuntimeRefusedAccess";

  @Override
  public String eventType() {
    return TYPE;
  }
}
