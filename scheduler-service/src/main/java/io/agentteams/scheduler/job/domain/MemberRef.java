package io.agentteams.scheduler.job.domain;

import java.util.Objects;

/**
 * A member as a job addresses it: its name, the agent bound to it and its own conversation.
 *
 * @param name the member's name in its team
 * @param agentId the agent that runs its jobs
 * @param conversationId its persistent conversation
 */
public record MemberRef(String name, String agentId, String conversationId) {

  public MemberRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(agentId, "agent id");
    Objects.requireNonNull(conversationId, "conversation id");
  }
}
