package io.agentteams.mailbox.message.persistence;

import io.agentteams.mailbox.message.domain.Message;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Moves deliveries through queued, delivered and read, and keeps members' read cursors. */
@Repository
public class DeliveryStore {

  // Delivers each (team, member, up to) target's whole queued prefix up to its sequence, for many
  // recipients in one statement. A concurrent delivery of the same rows waits for their locks and
  // then finds them no longer queued, so every copy reaches the inbox once, and the delivered
  // copies of a recipient always form a prefix of its sequence.
  // Each target's queued copies are looked up in the queued index by recipient (OFFSET 0 keeps the
  // planner from flattening the look-up into a join it may then drive from a scan of every queued
  // copy, which is what it chose while its statistics still counted the index as nearly empty).
  // A delivery transaction whose commit is lost in a crash leaves its copies queued (and its events
  // unmarked): the sweeper delivers them again. So it need not wait for the disk (a later
  // synchronous commit, like a read of those copies, flushes it first anyway), and the statement
  // says so itself rather than costing the transaction a round trip for SET LOCAL.
  private static final String DELIVER_ALL =
      """
      WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
      UPDATE delivery d SET status = 'delivered', delivered_at = clock_timestamp()
      FROM relaxed,
           unnest(CAST(:teams AS uuid[]), CAST(:members AS text[]), CAST(:upTo AS bigint[]))
             AS target(team_id, member, up_to)
           CROSS JOIN LATERAL (
             SELECT q.seq FROM delivery q
             WHERE q.team_id = target.team_id AND q.recipient = target.member
               AND q.seq <= target.up_to AND q.status = 'queued'
             OFFSET 0) queued,
           message m
      WHERE d.team_id = target.team_id AND d.recipient = target.member AND d.seq = queued.seq
        AND d.status = 'queued' AND m.id = d.message_id
      RETURNING d.team_id, d.recipient, d.message_id, d.seq, d.queued_at, d.delivered_at, m.owner_id
      """;

  private static final String STALE =
      """
      SELECT team_id, recipient, max(seq) AS up_to FROM delivery
      WHERE status = 'queued' AND queued_at < clock_timestamp() - make_interval(secs => :seconds)
      GROUP BY team_id, recipient
      LIMIT :limit
      """;

  private static final String BACKLOG =
      """
      SELECT count(*) AS queued,
             coalesce(extract(epoch FROM clock_timestamp() - min(queued_at)), 0) AS oldest
      FROM delivery WHERE status = 'queued'
      """;

  // Creates the cursor on first use; either way the row stays locked until the transaction ends,
  // and a reader that waited for it sees the cursor its predecessor left.
  private static final String LOCK_CURSOR =
      """
      INSERT INTO read_cursor AS c (team_id, member, read_seq) VALUES (:team, :member, 0)
      ON CONFLICT (team_id, member) DO UPDATE SET read_seq = c.read_seq
      RETURNING read_seq
      """;

  private static final String INBOX_AFTER =
      "SELECT d.seq AS inbox_seq, d.delivered_at, "
          + MessageRows.COLUMNS
          + """
           FROM delivery d JOIN message m ON m.id = d.message_id
          WHERE d.team_id = :team AND d.recipient = :member AND d.seq > :after
            AND d.status IN ('delivered', 'read')
          ORDER BY d.seq
          LIMIT :limit
          """;

  // What a read of what is new may lease: delivered copies past the acknowledged prefix that no
  // read holds (never leased, or their lease ran out unacknowledged). The walk starts at the
  // cursor, so it costs the copies leased and not yet acknowledged, not the inbox.
  private static final String LEASABLE =
      "SELECT d.seq AS inbox_seq, d.delivered_at, d.lease_id AS earlier_lease, "
          + MessageRows.COLUMNS
          + """
           FROM delivery d JOIN message m ON m.id = d.message_id
          WHERE d.team_id = :team AND d.recipient = :member AND d.seq > :after
            AND d.status = 'delivered' AND (d.lease_id IS NULL OR d.leased_until <= :now)
          ORDER BY d.seq
          LIMIT :limit
          """;

  private static final String LEASE =
      """
      UPDATE delivery SET lease_id = :lease, leased_until = :until
      WHERE team_id = :team AND recipient = :member
        AND seq = ANY(CAST(:seqs AS bigint[])) AND status = 'delivered'
      """;

  // Marks the copies of one lease read (whether or not it ran out, as long as no later read took
  // them over), or with :lease null those of every lease of the member.
  private static final String ACKNOWLEDGE =
      """
      UPDATE delivery SET status = 'read', read_at = clock_timestamp(), lease_id = NULL,
                          leased_until = NULL
      WHERE team_id = :team AND recipient = :member AND seq > :after AND status = 'delivered'
        AND lease_id IS NOT NULL AND (:everyLease OR lease_id = :lease)
      RETURNING message_id, seq
      """;

  // The acknowledged prefix: up to the first copy after the cursor not read yet (a queued, leased
  // or unread one), or to the last copy when every one is read.
  private static final String ADVANCE_CURSOR =
      """
      UPDATE read_cursor c SET read_seq = greatest(c.read_seq, coalesce(
          (SELECT min(d.seq) - 1 FROM delivery d
            WHERE d.team_id = c.team_id AND d.recipient = c.member AND d.seq > c.read_seq
              AND d.status <> 'read'),
          (SELECT max(d.seq) FROM delivery d
            WHERE d.team_id = c.team_id AND d.recipient = c.member AND d.seq > c.read_seq),
          c.read_seq)), updated_at = clock_timestamp()
      WHERE team_id = :team AND member = :member
      RETURNING read_seq
      """;

  private static final String LEASED =
      """
      SELECT count(*) AS leased FROM delivery
      WHERE team_id = :team AND recipient = :member AND seq > :after AND status = 'delivered'
        AND lease_id IS NOT NULL AND leased_until > :now
      """;

  private static final UUID NO_LEASE = new UUID(0, 0);

  private final DatabaseClient db;

  public DeliveryStore(DatabaseClient db) {
    this.db = db;
  }

  /**
   * Delivers the queued copies up to each target's sequence, for many recipients in one statement,
   * without waiting for this transaction's commit to reach the disk.
   */
  public Flux<Delivered> deliverAll(List<Target> targets) {
    if (targets.isEmpty()) {
      return Flux.empty();
    }
    return db.sql(DELIVER_ALL)
        .bind("teams", targets.stream().map(Target::teamId).toArray(UUID[]::new))
        .bind("members", targets.stream().map(Target::member).toArray(String[]::new))
        .bind("upTo", targets.stream().map(Target::upTo).toArray(Long[]::new))
        .map(
            row ->
                new Delivered(
                    row.get("team_id", UUID.class),
                    row.get("owner_id", String.class),
                    row.get("recipient", String.class),
                    row.get("message_id", UUID.class),
                    row.get("seq", Long.class),
                    row.get("queued_at", OffsetDateTime.class).toInstant(),
                    row.get("delivered_at", OffsetDateTime.class).toInstant()))
        .all();
  }

  /** Recipients with copies queued for longer than {@code age}, and their newest such copy. */
  public Flux<Stale> stale(Duration age, int limit) {
    return db.sql(STALE)
        .bind("seconds", age.toMillis() / 1000.0)
        .bind("limit", limit)
        .map(
            row ->
                new Stale(
                    row.get("team_id", UUID.class),
                    row.get("recipient", String.class),
                    row.get("up_to", Long.class)))
        .all();
  }

  /** How many copies are queued and how long the oldest has waited. */
  public Mono<Backlog> backlog() {
    return db.sql(BACKLOG)
        .map(
            row -> {
              Number oldest = row.get("oldest", Number.class);
              return new Backlog(
                  row.get("queued", Long.class),
                  Duration.ofMillis(oldest == null ? 0 : (long) (oldest.doubleValue() * 1000)));
            })
        .one();
  }

  /** Locks the member's read cursor until the transaction ends; returns its position. */
  public Mono<Long> lockCursor(UUID teamId, String member) {
    return db.sql(LOCK_CURSOR)
        .bind("team", teamId)
        .bind("member", member)
        .map(row -> row.get("read_seq", Long.class))
        .one();
  }

  /** Inbox messages after a position, oldest first. */
  public Flux<InboxEntry> inboxAfter(UUID teamId, String member, long after, int limit) {
    return db.sql(INBOX_AFTER)
        .bind("team", teamId)
        .bind("member", member)
        .bind("after", after)
        .bind("limit", limit)
        .map(
            row ->
                new InboxEntry(
                    row.get("inbox_seq", Long.class),
                    row.get("delivered_at", OffsetDateTime.class).toInstant(),
                    MessageRows.recorded(row)))
        .all();
  }

  /**
   * Delivered copies after {@code after} that no read holds (never leased, or their lease ran out
   * before {@code now}), oldest first.
   */
  public Flux<Leasable> leasable(UUID teamId, String member, long after, Instant now, int limit) {
    return db.sql(LEASABLE)
        .bind("team", teamId)
        .bind("member", member)
        .bind("after", after)
        .bind("now", now.atOffset(ZoneOffset.UTC))
        .bind("limit", limit)
        .map(
            row ->
                new Leasable(
                    new InboxEntry(
                        row.get("inbox_seq", Long.class),
                        row.get("delivered_at", OffsetDateTime.class).toInstant(),
                        MessageRows.recorded(row)),
                    row.get("earlier_lease", UUID.class) != null))
        .all();
  }

  /** Leases these copies (inbox sequences) to one read until {@code until}. */
  public Mono<Long> lease(
      UUID teamId, String member, List<Long> sequences, UUID lease, Instant until) {
    return db.sql(LEASE)
        .bind("team", teamId)
        .bind("member", member)
        .bind("seqs", sequences.toArray(Long[]::new))
        .bind("lease", lease)
        .bind("until", until.atOffset(ZoneOffset.UTC))
        .fetch()
        .rowsUpdated();
  }

  /**
   * Marks read the copies after {@code after} that one lease holds, or with a null lease those of
   * every lease of the member; returns them, oldest first. Every copy at or below the member's
   * cursor is read already, so a caller passing the cursor as {@code after} misses none.
   */
  public Mono<List<ReadCopy>> acknowledge(
      UUID teamId, String member, long after, @Nullable UUID lease) {
    return db.sql(ACKNOWLEDGE)
        .bind("team", teamId)
        .bind("member", member)
        .bind("after", after)
        .bind("everyLease", lease == null)
        .bind("lease", lease == null ? NO_LEASE : lease)
        .map(row -> new ReadCopy(row.get("message_id", UUID.class), row.get("seq", Long.class)))
        .all()
        .sort(Comparator.comparingLong(ReadCopy::sequence))
        .collectList();
  }

  /** Moves the cursor over the copies read since (never back); returns its position. */
  public Mono<Long> advanceCursor(UUID teamId, String member) {
    return db.sql(ADVANCE_CURSOR)
        .bind("team", teamId)
        .bind("member", member)
        .map(row -> row.get("read_seq", Long.class))
        .one();
  }

  /** How many copies after {@code after} reads hold under a lease still running at {@code now}. */
  public Mono<Long> leased(UUID teamId, String member, long after, Instant now) {
    return db.sql(LEASED)
        .bind("team", teamId)
        .bind("member", member)
        .bind("after", after)
        .bind("now", now.atOffset(ZoneOffset.UTC))
        .map(row -> row.get("leased", Long.class))
        .one();
  }

  /**
   * A copy a read may lease.
   *
   * @param entry the copy
   * @param leasedBefore whether an earlier read leased it and never acknowledged it
   */
  public record Leasable(InboxEntry entry, boolean leasedBefore) {}

  /**
   * A copy just moved into an inbox.
   *
   * @param teamId the team
   * @param ownerId the team's owner
   * @param recipient whose inbox
   * @param messageId the message
   * @param sequence its position in the inbox
   * @param queuedAt when the send queued it
   * @param deliveredAt when it was delivered
   */
  public record Delivered(
      UUID teamId,
      String ownerId,
      String recipient,
      UUID messageId,
      long sequence,
      Instant queuedAt,
      Instant deliveredAt) {}

  /**
   * A recipient's copies to deliver.
   *
   * @param teamId the team
   * @param member the recipient
   * @param upTo deliver every queued copy up to this inbox sequence
   */
  public record Target(UUID teamId, String member, long upTo) {}

  /**
   * A copy the member has now read.
   *
   * @param messageId the message
   * @param sequence its position in the inbox
   */
  public record ReadCopy(UUID messageId, long sequence) {}

  /**
   * A recipient with copies queued for too long.
   *
   * @param teamId the team
   * @param recipient the member
   * @param upTo its newest stale copy
   */
  public record Stale(UUID teamId, String recipient, long upTo) {}

  /**
   * The delivery backlog.
   *
   * @param queued copies queued
   * @param oldest how long the oldest has waited
   */
  public record Backlog(long queued, Duration oldest) {}

  /**
   * A message in a member's inbox.
   *
   * @param sequence its position in the inbox
   * @param deliveredAt when it was delivered
   * @param message the message
   */
  public record InboxEntry(long sequence, Instant deliveredAt, Message.Recorded message) {}
}
