package io.agentteams.mailbox.result.application;

import io.agentteams.mailbox.result.domain.ResultRecord;
import io.agentteams.platform.bounds.Utf8Truncation;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Result records as the API shows them. */
public final class ResultViews {

  private ResultViews() {}

  /**
   * A text cut to a byte budget.
   *
   * @param text the (possibly cut) text
   * @param truncated whether it was cut, here or before it reached this service
   */
  public record Excerpt(String text, boolean truncated) {

    static Excerpt of(String text, int maxBytes, boolean alreadyTruncated) {
      Utf8Truncation.Cut cut = Utf8Truncation.cut(text, maxBytes);
      return new Excerpt(cut.text(), cut.truncated() || alreadyTruncated);
    }

    Excerpt cut(int maxBytes) {
      return new Excerpt(Utf8Truncation.cut(text, maxBytes).text(), true);
    }
  }

  /**
   * One search hit: a finished job with short excerpts of its request and answer.
   *
   * @param jobId the job
   * @param member the member that ran it
   * @param requester {@code owner} or the requesting member
   * @param status {@code completed}, {@code failed} or {@code cancelled}
   * @param parentJobId the job whose hand-off created it
   * @param createdAt when it was requested
   * @param finishedAt when it finished
   * @param request the request's excerpt
   * @param answer the answer's excerpt
   */
  public record Summary(
      String jobId,
      String member,
      String requester,
      String status,
      @Nullable String parentJobId,
      Instant createdAt,
      Instant finishedAt,
      Excerpt request,
      Excerpt answer) {

    static Summary of(ResultRecord r, int excerptBytes) {
      return new Summary(
          r.jobId(),
          r.member(),
          r.requester(),
          r.status(),
          r.parentJobId(),
          r.createdAt(),
          r.finishedAt(),
          Excerpt.of(r.request(), excerptBytes, false),
          Excerpt.of(r.answer(), excerptBytes, r.answerTruncated()));
    }
  }

  /**
   * A page of search hits, newest request first.
   *
   * @param teamId the team
   * @param results the hits
   * @param nextCursor pass it back with the same filters for the next page; null at the end
   * @param cursorExpired true when the cursor's anchor is no longer kept
   */
  public record Page(
      UUID teamId, List<Summary> results, @Nullable String nextCursor, boolean cursorExpired) {}

  /**
   * The answer of a result.
   *
   * @param available whether there is an answer to show (a cancelled job has none)
   * @param text the answer or error text, cut to the text budget
   * @param truncated whether it was cut, here or by the scheduler
   * @param collectedTruncated whether the scheduler cut it when collecting it
   */
  public record Answer(
      boolean available, String text, boolean truncated, boolean collectedTruncated) {

    Answer cut(int maxBytes) {
      return new Answer(
          available, Utf8Truncation.cut(text, maxBytes).text(), true, collectedTruncated);
    }
  }

  /**
   * One result in full: who ran it for whom, how it ended, where, and its answer.
   *
   * @param jobId the job
   * @param teamId its team
   * @param member the member that ran it
   * @param requester {@code owner} or the requesting member
   * @param status {@code completed}, {@code failed} or {@code cancelled}
   * @param parentJobId the job whose hand-off created it
   * @param createdAt when it was requested
   * @param startedAt when it started running
   * @param finishedAt when it finished
   * @param conversationId the member's conversation
   * @param runId the agent runtime's run id
   * @param request an excerpt of the request
   * @param answer the retained answer
   */
  public record Detail(
      String jobId,
      UUID teamId,
      String member,
      String requester,
      String status,
      @Nullable String parentJobId,
      Instant createdAt,
      @Nullable Instant startedAt,
      Instant finishedAt,
      String conversationId,
      @Nullable String runId,
      Excerpt request,
      Answer answer) {

    static Detail of(ResultRecord r, int excerptBytes, int textBytes) {
      Utf8Truncation.Cut answer = Utf8Truncation.cut(r.answer(), textBytes);
      return new Detail(
          r.jobId(),
          r.teamId(),
          r.member(),
          r.requester(),
          r.status(),
          r.parentJobId(),
          r.createdAt(),
          r.startedAt(),
          r.finishedAt(),
          r.conversationId(),
          r.runId(),
          Excerpt.of(r.request(), excerptBytes, false),
          new Answer(
              r.answerAvailable(),
              answer.text(),
              answer.truncated() || r.answerTruncated(),
              r.answerTruncated()));
    }

    Detail withAnswer(Answer shorter) {
      return new Detail(
          jobId,
          teamId,
          member,
          requester,
          status,
          parentJobId,
          createdAt,
          startedAt,
          finishedAt,
          conversationId,
          runId,
          request,
          shorter);
    }
  }
}
