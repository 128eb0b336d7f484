package io.agentteams.scheduler.job.domain;

import io.agentteams.platform.bounds.TextBound;
import java.util.Objects;

/**
 * The sizes and counts jobs keep within.
 *
 * @param input request text
 * @param answer a clarification answer
 * @param answerJsonMaxBytes an interrupt response, UTF-8 bytes of its JSON
 * @param question a clarification question from an agent
 * @param interruptMaxBytes an interrupt payload from an agent, UTF-8 bytes of its JSON
 * @param resultMaxBytes a final answer or error, UTF-8 bytes, notice included
 * @param chainMaxRequests requests one chain accepts
 * @param teamMaxRequests requests one team accepts
 * @param teamMaxReceipts receipts one team accepts beside its requests
 * @param idempotencyKey a client's idempotency key
 */
public record JobLimits(
    TextBound input,
    TextBound answer,
    int answerJsonMaxBytes,
    TextBound question,
    int interruptMaxBytes,
    int resultMaxBytes,
    int chainMaxRequests,
    int teamMaxRequests,
    int teamMaxReceipts,
    TextBound idempotencyKey) {

  public JobLimits {
    Objects.requireNonNull(input);
    Objects.requireNonNull(answer);
    Objects.requireNonNull(question);
    Objects.requireNonNull(idempotencyKey);
    if (resultMaxBytes < ResultText.NOTICE_RESERVE) {
      throw new IllegalArgumentException(
          "the result limit must leave room for the truncation notice ("
              + ResultText.NOTICE_RESERVE
              + " bytes)");
    }
    if (chainMaxRequests < 1 || teamMaxRequests < 1 || teamMaxReceipts < 0) {
      throw new IllegalArgumentException("request limits must be positive");
    }
  }

  /**
   * Refuses adding {@code adding} requests to a team that holds {@code teamRequests}, naming the
   * limit.
   */
  public void checkTeamRequests(int teamRequests, int adding) {
    if (teamRequests + adding > teamMaxRequests) {
      throw JobProblems.teamRequests(teamMaxRequests, teamRequests + adding);
    }
  }

  /** Refuses one more request in a chain that holds {@code chainRequests}. */
  public void checkChainRequests(int chainRequests) {
    if (chainRequests + 1 > chainMaxRequests) {
      throw JobProblems.chainRequests(chainMaxRequests, chainRequests + 1);
    }
  }

  /** Whether a team that holds {@code teamReceipts} receipts has room for one more. */
  public boolean receiptFits(int teamReceipts) {
    return teamReceipts + 1 <= teamMaxReceipts;
  }

  /** Checks an answer to a question of the given kind. */
  public Answer checkAnswer(InputKind kind, String content) {
    if (kind == InputKind.CLARIFICATION) {
      return new Answer(kind, answer.checkNotBlank(content));
    }
    checkJsonBytes("job.answer-json.max-bytes", content, answerJsonMaxBytes);
    return new Answer(kind, content);
  }

  /** Checks a question an agent asked. */
  public Question checkQuestion(InputKind kind, String content) {
    if (kind == InputKind.CLARIFICATION) {
      return new Question(kind, question.checkNotBlank(content));
    }
    checkJsonBytes("job.interrupt.max-bytes", content, interruptMaxBytes);
    return new Question(kind, content);
  }

  private static void checkJsonBytes(String limit, String json, int max) {
    // measure() also refuses unpaired surrogates, which have no UTF-8 form.
    int bytes = TextBound.measure(limit, json).bytes();
    if (bytes > max) {
      throw JobProblems.jsonTooLarge(limit, max, bytes);
    }
  }
}
