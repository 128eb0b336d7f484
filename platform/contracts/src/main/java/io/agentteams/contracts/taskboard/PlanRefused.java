package io.agentteams.contracts.taskboard;

import io.agentteams.contracts.EventPayload;

/**
 * The board refused to import a plan a team run submitted ({@code RunPlanSubmitted}): nothing was
 * added to the board. The run fails with the reason.
 *
 * @param planId the plan's id, which is the run's id
 * @param code the refusal's problem code, e.g. {@code dependency-cycle} or {@code unknown-member}
 * @param reason the refusal, for people
 */
public record PlanRefused(String teamId, String planId, String code, String reason)
    implements EventPayload {

  public static final String TYPE = "PlanRefused";

  @Override
  public String eventType() {
    return TYPE;
  }
}
