package io.agentteams.contracts.taskboard;

/**
 * How plan import changed a task id it was given.
 *
 * @param original the id as given
 * @param key the normalised key
 * @param reason {@code normalised} (case or characters) or {@code duplicate}
 */
public record PlanRename(String original, String key, String reason) {}
