package io.agentteams.scheduler.job;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.scheduler.job.domain.JobLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The sizes and counts every job, chain and team keeps within.
 *
 * @param inputMaxChars request text, characters
 * @param inputMaxBytes request text, UTF-8 bytes
 * @param answerMaxChars a clarification answer, characters
 * @param answerMaxBytes a clarification answer, UTF-8 bytes
 * @param answerJsonMaxBytes an interrupt response, UTF-8 bytes of its JSON
 * @param questionMaxChars a clarification question from an agent, characters
 * @param questionMaxBytes a clarification question from an agent, UTF-8 bytes
 * @param interruptMaxBytes an interrupt payload from an agent, UTF-8 bytes of its JSON
 * @param resultMaxBytes a final answer or error kept with the job, UTF-8 bytes (longer ones are cut
 *     with a truncation notice)
 * @param chainMaxRequests requests (owner requests and hand-offs) one chain accepts
 * @param teamMaxRequests requests one team accepts
 * @param teamMaxReceipts result receipts one team accepts, beside its requests
 * @param idempotencyKeyMaxChars a client's idempotency key, characters
 */
@Validated
@ConfigurationProperties("agentteams.scheduler.jobs")
public record JobProperties(
    @DefaultValue("4000") int inputMaxChars,
    @DefaultValue("8000") int inputMaxBytes,
    @DefaultValue("4000") int answerMaxChars,
    @DefaultValue("8000") int answerMaxBytes,
    @DefaultValue("8000") int answerJsonMaxBytes,
    @DefaultValue("4000") int questionMaxChars,
    @DefaultValue("8000") int questionMaxBytes,
    @DefaultValue("8000") int interruptMaxBytes,
    @DefaultValue("6000") int resultMaxBytes,
    @DefaultValue("12") int chainMaxRequests,
    @DefaultValue("100") int teamMaxRequests,
    @DefaultValue("100") int teamMaxReceipts,
    @DefaultValue("200") int idempotencyKeyMaxChars) {

  /** The limits as the domain sees them; impossible values fail at start-up. */
  public JobLimits limits() {
    return new JobLimits(
        new TextBound("job.input", inputMaxChars, inputMaxBytes),
        new TextBound("job.answer", answerMaxChars, answerMaxBytes),
        answerJsonMaxBytes,
        new TextBound("job.question", questionMaxChars, questionMaxBytes),
        interruptMaxBytes,
        resultMaxBytes,
        chainMaxRequests,
        teamMaxRequests,
        teamMaxReceipts,
        new TextBound("job.idempotency-key", idempotencyKeyMaxChars, idempotencyKeyMaxChars * 4));
  }
}
