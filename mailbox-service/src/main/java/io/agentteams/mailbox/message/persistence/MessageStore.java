package io.agentteams.mailbox.message.persistence;

import io.agentteams.mailbox.message.domain.Message;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores messages with their queued deliveries. */
@Repository
public class MessageStore {

  private static final String LOCK_TEAM =
      """
      INSERT INTO team_mailbox AS t (team_id, last_message_seq) VALUES (:team, 0)
      ON CONFLICT (team_id) DO UPDATE SET last_message_seq = t.last_message_seq
      RETURNING last_message_seq
      """;

  // One statement: next team sequence, the message, the recipients' next inbox sequences and one
  // queued delivery each. The team row is already locked by LOCK_TEAM, so only this transaction
  // touches the team's counters until it commits.
  private static final String INSERT =
      """
      WITH clock AS (
        SELECT clock_timestamp() AS at
      ), team AS (
        UPDATE team_mailbox SET last_message_seq = last_message_seq + 1
        WHERE team_id = :team
        RETURNING last_message_seq
      ), message_row AS (
        INSERT INTO message (id, team_id, owner_id, seq, kind, sender_kind, sender, system_kind,
                             recipients, job_id, conversation_id, client_message_id, text, sent_at)
        SELECT :id, :team, :owner, team.last_message_seq, :kind, :senderKind, :sender, :systemKind,
               CAST(:recipients AS text[]), :jobId, :conversationId, :clientMessageId, :text, clock.at
        FROM team, clock
        RETURNING seq, sent_at
      ), recipient AS (
        INSERT INTO member_mailbox AS mm (team_id, member, last_seq)
        SELECT :team, r.member, 1 FROM unnest(CAST(:recipients AS text[])) AS r(member)
        ON CONFLICT (team_id, member) DO UPDATE SET last_seq = mm.last_seq + 1
        RETURNING member, last_seq
      ), queued AS (
        INSERT INTO delivery (team_id, recipient, seq, message_id, status, queued_at)
        SELECT :team, recipient.member, recipient.last_seq, :id, 'queued', clock.at
        FROM recipient, clock
        RETURNING recipient, seq
      )
      SELECT message_row.seq AS message_seq, message_row.sent_at, queued.recipient, queued.seq
      FROM message_row, queued
      """;

  private final DatabaseClient db;

  public MessageStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Locks the team's mailbox row until the transaction ends, so a team's sends commit one after the
   * other in sequence order.
   *
   * @return the team's last message sequence
   */
  public Mono<Long> lockTeam(UUID teamId) {
    return db.sql(LOCK_TEAM)
        .bind("team", teamId)
        .map(row -> row.get("last_message_seq", Long.class))
        .one();
  }

  /** Inserts the message with one queued delivery per recipient. Call with the team locked. */
  public Mono<Queued> insert(Message m) {
    DatabaseClient.GenericExecuteSpec insert =
        db.sql(INSERT)
            .bind("id", m.id())
            .bind("team", m.teamId())
            .bind("owner", m.ownerId())
            .bind("kind", m.kind().wire())
            .bind("senderKind", m.sender().kind().wire())
            .bind("sender", m.sender().name())
            .bind("recipients", m.recipients().toArray(String[]::new))
            .bind("text", m.text());
    insert =
        Binds.nullable(
            insert,
            "systemKind",
            m.systemKind() == null ? null : m.systemKind().wire(),
            String.class);
    insert = Binds.nullable(insert, "jobId", m.jobId(), String.class);
    insert = Binds.nullable(insert, "conversationId", m.conversationId(), String.class);
    insert = Binds.nullable(insert, "clientMessageId", m.clientMessageId(), String.class);
    return insert
        .map(
            row ->
                new Row(
                    row.get("message_seq", Long.class),
                    row.get("sent_at", OffsetDateTime.class),
                    row.get("recipient", String.class),
                    row.get("seq", Long.class)))
        .all()
        .collectList()
        .map(
            rows -> {
              List<Queued.Recipient> recipients = new ArrayList<>();
              for (String name : m.recipients()) {
                Row row =
                    rows.stream()
                        .filter(r -> r.recipient().equals(name))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException("no copy for " + name));
                recipients.add(new Queued.Recipient(name, row.seq(), "queued"));
              }
              Row first = rows.get(0);
              return new Queued(
                  new Message.Recorded(m, first.messageSeq(), first.sentAt().toInstant()),
                  recipients);
            });
  }

  /** The message a sender already sent with this client message id, if any. */
  public Mono<Queued> findByClientMessageId(UUID teamId, String sender, String clientMessageId) {
    return db.sql(
            "SELECT "
                + MessageRows.COLUMNS
                + " FROM message m WHERE m.team_id = :team AND m.sender = :sender"
                + " AND m.client_message_id = :client")
        .bind("team", teamId)
        .bind("sender", sender)
        .bind("client", clientMessageId)
        .map(MessageRows::recorded)
        .one()
        .flatMap(
            recorded ->
                db.sql(
                        "SELECT recipient, seq, status FROM delivery WHERE message_id = :id"
                            + " ORDER BY array_position(CAST(:recipients AS text[]), recipient)")
                    .bind("id", recorded.message().id())
                    .bind("recipients", recorded.message().recipients().toArray(String[]::new))
                    .map(
                        row ->
                            new Queued.Recipient(
                                row.get("recipient", String.class),
                                row.get("seq", Long.class),
                                row.get("status", String.class)))
                    .all()
                    .collectList()
                    .map(recipients -> new Queued(recorded, recipients)));
  }

  /** The newest messages of a team, newest first. */
  public Flux<Message.Recorded> newest(UUID teamId, int count) {
    return db.sql(
            "SELECT "
                + MessageRows.COLUMNS
                + " FROM message m WHERE m.team_id = :team ORDER BY m.seq DESC LIMIT :count")
        .bind("team", teamId)
        .bind("count", count)
        .map(MessageRows::recorded)
        .all();
  }

  private record Row(long messageSeq, OffsetDateTime sentAt, String recipient, long seq) {}

  /**
   * A stored message with its recipients' inbox positions.
   *
   * @param recorded the message
   * @param recipients each recipient's copy
   */
  public record Queued(Message.Recorded recorded, List<Recipient> recipients) {

    /**
     * One recipient's copy.
     *
     * @param member the recipient
     * @param sequence the message's position in its inbox
     * @param status {@code queued}, {@code delivered} or {@code read}
     */
    public record Recipient(String member, long sequence, String status) {}
  }
}
