package io.agentteams.team.teams.domain;

/**
 * A member of a team: bound to one agent and to its own persistent conversation.
 *
 * @param name unique and immutable in the team
 * @param agentId the catalog agent it runs as
 * @param lead whether it may assign tasks to others and interrupt members
 * @param conversationId its own conversation, allocated once and kept
 */
public record Member(MemberName name, String agentId, boolean lead, String conversationId) {}
