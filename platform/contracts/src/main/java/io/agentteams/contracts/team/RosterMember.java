package io.agentteams.contracts.team;

/** One member of a team's roster as other services see it. */
public record RosterMember(String name, String agentId, boolean lead, String conversationId) {}
