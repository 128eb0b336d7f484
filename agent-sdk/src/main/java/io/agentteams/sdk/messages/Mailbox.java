package io.agentteams.sdk.messages;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/v1/teams/{teamId}/messages}, {@code inbox}, {@code history} and {@code results}: the
 * owner or a member sends; a member reads its inbox; both read the history and results.
 */
public final class Mailbox {

  private final HttpTransport http;

  public Mailbox(HttpTransport http) {
    this.http = http;
  }

  /**
   * A direct message to one member.
   *
   * @param clientMessageId makes retries safe: the same id returns the first send; null for none
   */
  public SentMessage send(UUID teamId, String to, String text, @Nullable String clientMessageId) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("to", to);
    body.put("text", text);
    if (clientMessageId != null) {
      body.put("client_message_id", clientMessageId);
    }
    return post(teamId, body);
  }

  /**
   * A message to every other member.
   *
   * @param clientMessageId makes retries safe; null for none
   */
  public SentMessage broadcast(UUID teamId, String text, @Nullable String clientMessageId) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("broadcast", true);
    body.put("text", text);
    if (clientMessageId != null) {
      body.put("client_message_id", clientMessageId);
    }
    return post(teamId, body);
  }

  private SentMessage post(UUID teamId, Map<String, Object> body) {
    return Objects.requireNonNull(
        http.call(
            "POST", ApiPath.of("/api/v1/teams/{}/messages", teamId), body, SentMessage.class));
  }

  /**
   * What is new in the member's inbox (the member is the token's), acknowledging every earlier read
   * of the member first: a reader that never acknowledges moves on, but a read whose answer is lost
   * loses its messages. Prefer {@link #reader} or {@link #read}, which lose nothing.
   *
   * @param after re-read from this sequence instead (nothing leased or acknowledged); null for what
   *     is new
   * @param limit at most this many; null for the default
   */
  public InboxPage inbox(UUID teamId, @Nullable Long after, @Nullable Integer limit) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/inbox", teamId)
                .query("after", after)
                .query("limit", limit),
            null,
            InboxPage.class));
  }

  /**
   * What is new in the member's inbox, leased to this read, after acknowledging the read whose
   * lease is {@code ack}. Repeating a call whose answer was lost is safe: its messages come back
   * once their lease runs out.
   *
   * @param ack the {@code leaseId} of the previous read to acknowledge; null for nothing
   * @param limit at most this many; null for the default
   */
  public InboxPage read(UUID teamId, @Nullable String ack, @Nullable Integer limit) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/inbox", teamId)
                .query("ack", ack == null ? "none" : ack)
                .query("limit", limit),
            null,
            InboxPage.class));
  }

  /** Acknowledges one read (its {@code leaseId}): its messages are marked read. */
  public Acknowledged acknowledge(UUID teamId, String leaseId) {
    return Objects.requireNonNull(
        http.call(
            "POST",
            ApiPath.of("/api/v1/teams/{}/inbox/ack", teamId),
            Map.of("lease_id", leaseId),
            Acknowledged.class));
  }

  /** A reader of the member's inbox that acknowledges each read with the next one. */
  public InboxReader reader(UUID teamId) {
    return new InboxReader(this, teamId);
  }

  /** A page of the team's shared message record. */
  public HistoryPage history(UUID teamId, Search search) {
    return Objects.requireNonNull(
        http.call(
            "GET", filtered("/api/v1/teams/{}/history", teamId, search), null, HistoryPage.class));
  }

  /** A page of finished jobs' results. */
  public ResultPage results(UUID teamId, Search search) {
    return Objects.requireNonNull(
        http.call(
            "GET", filtered("/api/v1/teams/{}/results", teamId, search), null, ResultPage.class));
  }

  /** One job's result in full. */
  public ResultDetail result(UUID teamId, String jobId) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/results/{}", teamId, jobId),
            null,
            ResultDetail.class));
  }

  private static ApiPath filtered(String template, UUID teamId, Search search) {
    return ApiPath.of(template, teamId)
        .query("member_id", search.memberId())
        .query("job_id", search.jobId())
        .query("query", search.query())
        .query("limit", search.limit())
        .query("cursor", search.cursor());
  }
}
