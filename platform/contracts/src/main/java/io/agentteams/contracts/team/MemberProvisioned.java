package io.agentteams.contracts.team;

/**
 * A member's conversation was ensured: its id allocated and, for runtimes that keep conversations,
 * created there (idempotently, keyed by that id).
 *
 * @param teamId the team
 * @param member the member's name
 * @param agentId the catalog agent the member runs as
 * @param runtimeKind {@code pull}, {@code webhook} or {@code a2a}, as recorded in the binding
 * @param conversationId the member's persistent conversation
 * @param round 1 for the team's creation, higher for each reconnect
 * @param outcome {@code allocated} (the runtime keeps no conversations), {@code created} (the
 *     runtime created it now) or {@code existing} (the runtime already had it and it was left
 *     alone)
 * @param teamRevision the team's revision after this change
 */
public record MemberProvisioned(
    String teamId,
    String member,
    String agentId,
    String runtimeKind,
    String conversationId,
    int round,
    String outcome,
    long teamRevision)
    implements TeamEvent {

  public static final String TYPE = "MemberProvisioned";

  @Override
  public String eventType() {
    return TYPE;
  }
}
