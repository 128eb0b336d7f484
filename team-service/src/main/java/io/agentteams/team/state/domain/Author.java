package io.agentteams.team.state.domain;

import org.jspecify.annotations.Nullable;

/**
 * Who writes an entry, as the service knows it from the caller's verified identity and the roster,
 * never from the request body.
 *
 * @param member the member's name, or {@link #OWNER} for the team's owner
 * @param conversationId the member's conversation; empty for the team's owner, who has none
 * @param jobId the job the member's token was minted for, if any
 */
public record Author(String member, String conversationId, @Nullable String jobId) {

  /** How entries name the team's owner as their author or latest editor, as the task board does. */
  public static final String OWNER = "owner";

  /** The team's owner, writing from the console or with an owner token: no conversation, no job. */
  public static Author owner() {
    return new Author(OWNER, "", null);
  }
}
