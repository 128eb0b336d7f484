package io.agentteams.scheduler.admission.domain;

import java.util.Objects;
import java.util.UUID;

/**
 * A queued job that could take a slot now: it is the head of its conversation.
 *
 * @param jobId the job
 * @param ownerId the owner it is served for
 * @param teamId its team
 * @param conversationId the conversation it runs in
 * @param queuePosition when it (re)entered the queue, in queue order
 */
public record Candidate(
    UUID jobId, String ownerId, UUID teamId, String conversationId, long queuePosition) {

  public Candidate {
    Objects.requireNonNull(jobId, "job id");
    Objects.requireNonNull(ownerId, "owner id");
    Objects.requireNonNull(teamId, "team id");
    Objects.requireNonNull(conversationId, "conversation id");
  }
}
