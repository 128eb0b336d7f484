package io.agentteams.sdk.tasks;

import java.util.List;

/**
 * The outcome of approving a held plan.
 *
 * @param plan the plan
 * @param tasks its tasks, released
 * @param nowReady the ids that became claimable
 */
public record PlanApproval(Plan plan, List<Task> tasks, List<Long> nowReady) {}
