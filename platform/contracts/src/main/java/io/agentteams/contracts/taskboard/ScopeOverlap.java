package io.agentteams.contracts.taskboard;

/**
 * A warning that two active tasks intend to write overlapping paths. Never a lock, never a refusal.
 *
 * @param taskId the task the warning is about
 * @param scope its write scope
 * @param otherTaskId the other active task
 * @param otherScope the other task's overlapping write scope
 */
public record ScopeOverlap(long taskId, String scope, long otherTaskId, String otherScope) {}
