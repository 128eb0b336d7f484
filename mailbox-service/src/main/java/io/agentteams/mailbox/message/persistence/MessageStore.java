package io.agentteams.mailbox.message.persistence;

import io.agentteams.mailbox.message.domain.Message;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores messages with their queued deliveries. */
@Repository
public class MessageStore {

  // Locks the teams' mailbox rows in one fixed order (the database's uuid order, the same as
  // INSERT_ALL's), creating those of teams that never sent. Needed before INSERT_ALL only when the
  // batch holds client message ids: a statement sees the messages committed when it began, so the
  // look-up of earlier sends must start after the locks are held, in a statement of its own.
  private static final String LOCK_TEAMS =
      """
      INSERT INTO team_mailbox AS t (team_id, last_message_seq)
      SELECT team, 0 FROM unnest(CAST(:teams AS uuid[])) AS team ORDER BY team
      ON CONFLICT (team_id) DO UPDATE SET last_message_seq = t.last_message_seq
      """;

  // A whole batch of sends, of any teams, in one statement:
  //  - item/copy: the messages in queue order and their recipients;
  //  - existing: those already sent under their client message id (nothing is written for them);
  //  - team_alloc: locks each team's mailbox row, in the database's uuid order so that batches
  //    on any replica take them in the same order, and takes as many message sequences as the
  //    team has fresh messages; an upsert that waited for the row's lock updates the row as its
  //    holder committed it, so the counters are exact;
  //  - member_alloc: the same for each recipient's inbox sequence. A team's member rows are only
  //    written with the team's row locked, and each one here derives from its team's locked row, so
  //    it never waits;
  //  - the messages and one queued delivery per recipient, sequences in queue order within a team
  //    and within a recipient.
  // Returns one row per copy of a fresh message and one per message sent before.
  private static final String INSERT_ALL =
      """
      WITH item AS (
        SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:teams AS uuid[]), CAST(:owners AS text[]),
                             CAST(:kinds AS text[]), CAST(:senderKinds AS text[]),
                             CAST(:senders AS text[]), CAST(:systemKinds AS text[]),
                             CAST(:jobIds AS text[]), CAST(:conversationIds AS text[]),
                             CAST(:clientMessageIds AS text[]), CAST(:texts AS text[]))
          WITH ORDINALITY AS i(id, team_id, owner_id, kind, sender_kind, sender, system_kind,
                               job_id, conversation_id, client_message_id, text, ord)
      ), copy AS (
        SELECT * FROM unnest(CAST(:copyItems AS bigint[]), CAST(:copyMembers AS text[]))
          WITH ORDINALITY AS c(ord, member, pos)
      ), existing AS (
        SELECT i.ord, m.id AS existing_id
        FROM item i JOIN message m
          ON m.team_id = i.team_id AND m.sender = i.sender
         AND m.client_message_id = i.client_message_id AND m.client_message_id IS NOT NULL
      ), fresh AS (
        SELECT i.*, row_number() OVER (PARTITION BY i.team_id ORDER BY i.ord) AS team_rank
        FROM item i WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.ord = i.ord)
      ), team_count AS (
        SELECT team_id, count(*) AS n FROM fresh GROUP BY team_id
      ), team_alloc AS (
        INSERT INTO team_mailbox AS t (team_id, last_message_seq)
        SELECT team_id, n FROM team_count ORDER BY team_id
        ON CONFLICT (team_id) DO UPDATE SET last_message_seq = t.last_message_seq + EXCLUDED.last_message_seq
        RETURNING team_id, last_message_seq
      ), msg AS (
        SELECT f.*, a.last_message_seq - c.n + f.team_rank AS seq
        FROM fresh f
        JOIN team_count c ON c.team_id = f.team_id
        JOIN team_alloc a ON a.team_id = f.team_id
      ), fresh_copy AS (
        SELECT m.ord, m.team_id, m.id AS message_id, m.seq AS message_seq, c.member, c.pos,
               row_number() OVER (PARTITION BY m.team_id, c.member ORDER BY m.ord) AS member_rank
        FROM msg m JOIN copy c ON c.ord = m.ord
      ), member_count AS (
        SELECT team_id, member, count(*) AS n FROM fresh_copy GROUP BY team_id, member
      ), member_alloc AS (
        INSERT INTO member_mailbox AS mm (team_id, member, last_seq)
        SELECT team_id, member, n FROM member_count ORDER BY team_id, member
        ON CONFLICT (team_id, member) DO UPDATE SET last_seq = mm.last_seq + EXCLUDED.last_seq
        RETURNING team_id, member, last_seq
      ), copy_seq AS (
        SELECT fc.*, a.last_seq - c.n + fc.member_rank AS seq
        FROM fresh_copy fc
        JOIN member_count c ON c.team_id = fc.team_id AND c.member = fc.member
        JOIN member_alloc a ON a.team_id = fc.team_id AND a.member = fc.member
      ), clock AS MATERIALIZED (
        SELECT clock_timestamp() AS at
      ), message_row AS (
        INSERT INTO message (id, team_id, owner_id, seq, kind, sender_kind, sender, system_kind,
                             recipients, job_id, conversation_id, client_message_id, text, sent_at)
        SELECT m.id, m.team_id, m.owner_id, m.seq, m.kind, m.sender_kind, m.sender, m.system_kind,
               ARRAY(SELECT c.member FROM copy c WHERE c.ord = m.ord ORDER BY c.pos),
               m.job_id, m.conversation_id, m.client_message_id, m.text, clock.at
        FROM msg m, clock
      ), queued AS (
        INSERT INTO delivery (team_id, recipient, seq, message_id, status, queued_at)
        SELECT cs.team_id, cs.member, cs.seq, cs.message_id, 'queued', clock.at
        FROM copy_seq cs, clock
      )
      SELECT cs.ord, cs.message_seq, clock.at AS sent_at, cs.member AS recipient,
             cs.seq AS recipient_seq, CAST(NULL AS uuid) AS existing_id
      FROM copy_seq cs, clock
      UNION ALL
      SELECT e.ord, NULL, NULL, NULL, NULL, e.existing_id FROM existing e
      """;

  private final DatabaseClient db;

  public MessageStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Writes a batch of sends, of any teams, in one transaction (call within one): each message not
   * already sent under its client message id gets the next sequence of its team and one queued
   * delivery per recipient, in the order given. The teams stay locked until the transaction ends,
   * so a team's sends commit in sequence order. The messages must not repeat a (team, sender,
   * client message id).
   *
   * @return per message, in the order given: the message as stored now, or the one already sent
   */
  public Mono<List<Stored>> insertAll(List<Message> batch) {
    if (batch.isEmpty()) {
      return Mono.just(List.of());
    }
    Mono<Void> lock =
        batch.stream().anyMatch(m -> m.clientMessageId() != null)
            ? db.sql(LOCK_TEAMS)
                .bind("teams", batch.stream().map(Message::teamId).distinct().toArray(UUID[]::new))
                .fetch()
                .rowsUpdated()
                .then()
            : Mono.empty();
    return lock.then(insertRows(batch).collectList()).flatMap(rows -> stored(batch, rows));
  }

  private Flux<BatchRow> insertRows(List<Message> batch) {
    List<Long> copyItems = new ArrayList<>();
    List<String> copyMembers = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      for (String recipient : batch.get(i).recipients()) {
        copyItems.add(i + 1L);
        copyMembers.add(recipient);
      }
    }
    return db.sql(INSERT_ALL)
        .bind("ids", uuids(batch, Message::id))
        .bind("teams", uuids(batch, Message::teamId))
        .bind("owners", texts(batch, Message::ownerId))
        .bind("kinds", texts(batch, m -> m.kind().wire()))
        .bind("senderKinds", texts(batch, m -> m.sender().kind().wire()))
        .bind("senders", texts(batch, m -> m.sender().name()))
        .bind(
            "systemKinds", texts(batch, m -> m.systemKind() == null ? null : m.systemKind().wire()))
        .bind("jobIds", texts(batch, Message::jobId))
        .bind("conversationIds", texts(batch, Message::conversationId))
        .bind("clientMessageIds", texts(batch, Message::clientMessageId))
        .bind("texts", texts(batch, Message::text))
        .bind("copyItems", copyItems.toArray(Long[]::new))
        .bind("copyMembers", copyMembers.toArray(String[]::new))
        .map(
            row -> {
              OffsetDateTime sentAt = row.get("sent_at", OffsetDateTime.class);
              return new BatchRow(
                  row.get("ord", Long.class).intValue() - 1,
                  row.get("existing_id", UUID.class),
                  row.get("message_seq", Long.class),
                  sentAt == null ? null : sentAt.toInstant(),
                  row.get("recipient", String.class),
                  row.get("recipient_seq", Long.class));
            })
        .all();
  }

  private static UUID[] uuids(List<Message> batch, Function<Message, UUID> value) {
    return batch.stream().map(value).toArray(UUID[]::new);
  }

  /** One text per message, null where it has none. */
  private static String[] texts(List<Message> batch, Function<Message, @Nullable String> value) {
    String[] column = new String[batch.size()];
    for (int i = 0; i < column.length; i++) {
      column[i] = value.apply(batch.get(i));
    }
    return column;
  }

  /** The statement's rows as one outcome per message, loading the messages sent before. */
  private Mono<List<Stored>> stored(List<Message> batch, List<BatchRow> rows) {
    Map<Integer, List<BatchRow>> byItem = new HashMap<>();
    rows.forEach(row -> byItem.computeIfAbsent(row.item(), k -> new ArrayList<>()).add(row));
    return Flux.range(0, batch.size())
        .concatMap(
            i -> {
              Message m = batch.get(i);
              List<BatchRow> mine = byItem.getOrDefault(i, List.of());
              if (mine.isEmpty()) {
                return Mono.error(new IllegalStateException("nothing written for " + m.id()));
              }
              BatchRow first = mine.get(0);
              if (first.existingId() != null) {
                return findByClientMessageId(
                        m.teamId(), m.sender().name(), Objects.requireNonNull(m.clientMessageId()))
                    .switchIfEmpty(
                        Mono.error(new IllegalStateException("sent before, then gone: " + m.id())))
                    .map(existing -> new Stored(existing, true));
              }
              List<Queued.Recipient> recipients = new ArrayList<>();
              for (String name : m.recipients()) {
                BatchRow copy =
                    mine.stream()
                        .filter(r -> name.equals(r.recipient()))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException("no copy for " + name));
                recipients.add(
                    new Queued.Recipient(
                        name, Objects.requireNonNull(copy.recipientSeq()), "queued"));
              }
              return Mono.just(
                  new Stored(
                      new Queued(
                          new Message.Recorded(
                              m,
                              Objects.requireNonNull(first.messageSeq()),
                              Objects.requireNonNull(first.sentAt())),
                          recipients),
                      false));
            })
        .collectList();
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

  /** A row of {@link #INSERT_ALL}: a copy of a fresh message, or a message sent before. */
  private record BatchRow(
      int item,
      @Nullable UUID existingId,
      @Nullable Long messageSeq,
      @Nullable Instant sentAt,
      @Nullable String recipient,
      @Nullable Long recipientSeq) {}

  /**
   * The outcome of one send of a batch.
   *
   * @param queued the message and its recipients' copies
   * @param sentBefore whether it is a message sent before under the same client message id (which
   *     may or may not be the same request), and nothing was written for this send
   */
  public record Stored(Queued queued, boolean sentBefore) {}

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
