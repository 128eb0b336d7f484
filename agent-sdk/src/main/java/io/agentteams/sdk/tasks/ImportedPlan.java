package io.agentteams.sdk.tasks;

import java.util.List;

/**
 * The outcome of a plan import.
 *
 * @param plan the plan
 * @param tasks the tasks it created
 * @param warnings overlapping write scopes
 */
public record ImportedPlan(Plan plan, List<Task> tasks, List<TaskOutcome.Warning> warnings) {}
