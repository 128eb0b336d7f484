package io.agentteams.scheduler.admission.domain;

import java.util.UUID;

/**
 * An unfinished job as conversation serialisation sees it.
 *
 * @param jobId the job
 * @param ownerId its owner
 * @param teamId its team
 * @param conversationId the conversation it runs in
 * @param sequence its creation order; the first unfinished job of a conversation holds its head
 * @param queued whether it waits for admission (new, or answered after a question)
 * @param queuePosition when it (re)entered the queue
 */
public record UnfinishedJob(
    UUID jobId,
    String ownerId,
    UUID teamId,
    String conversationId,
    long sequence,
    boolean queued,
    long queuePosition) {}
