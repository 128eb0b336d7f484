package io.agentteams.contracts.taskboard;

/** One task of an imported plan: its normalised key and the board id it received. */
public record PlanTask(String key, long taskId) {}
