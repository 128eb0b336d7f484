package io.agentteams.mailbox.message.application;

import io.agentteams.contracts.Topics;
import io.agentteams.contracts.mailbox.MessageRead;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.domain.MessageProblems;
import io.agentteams.mailbox.message.persistence.DeliveryStore;
import io.agentteams.mailbox.paging.application.ResponseBudget;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.bounds.Utf8Truncation;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * A member reads what is new in its inbox: direct messages and broadcasts, oldest first. A read
 * <em>leases</em> what it returns instead of marking it read, so a read whose answer never reached
 * its reader (a replica killed after the commit, a cut connection, a client that retried the
 * request) loses nothing: the reader acknowledges a read by naming its lease in the next one
 * ({@code ack}), which marks those messages read and announces {@code MessageRead}; a lease not
 * acknowledged within {@code inbox-lease} runs out and its messages are returned again. While a
 * lease runs, no other read of the member gets its messages. Every read holds the member's cursor
 * row locked, so concurrent readers of one member never lease the same message.
 *
 * <p>A read that names no {@code ack} at all acknowledges every earlier lease of the member first
 * (what earlier reads returned), so a reader that never acknowledges still moves on; it reads each
 * message at most once, like before leases.
 */
@Service
public class InboxReading {

  // The longest expiry a page can carry, for measuring a page against the byte budget.
  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  /** The {@code ack} of a reader with nothing to acknowledge (its first read). */
  public static final String NOTHING = "none";

  private static final ResponseBudget.Shortener<InboxPage.Item> SHORTENER =
      new ResponseBudget.Shortener<>() {
        @Override
        public int textBytes(InboxPage.Item item) {
          return TextBound.utf8Length(item.text());
        }

        @Override
        public InboxPage.Item cut(InboxPage.Item item, int maxBytes) {
          return item.withText(Utf8Truncation.cut(item.text(), maxBytes).text());
        }
      };

  private final RosterAccess access;
  private final DeliveryStore store;
  private final Outbox outbox;
  private final TransactionalOperator transactions;
  private final ResponseBudget budget;
  private final int maxMessages;
  private final Duration leaseTime;
  private final Clock clock;
  private final Counter leasedCopies;
  private final Counter expiredCopies;
  private final Counter acknowledgedCopies;

  public InboxReading(
      RosterAccess access,
      DeliveryStore store,
      Outbox outbox,
      TransactionalOperator transactions,
      ResponseBudget budget,
      MailboxProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.access = access;
    this.store = store;
    this.outbox = outbox;
    this.transactions = transactions;
    this.budget = budget;
    this.maxMessages = properties.inboxMaxMessages();
    this.leaseTime = properties.inboxLease();
    this.clock = clock;
    this.leasedCopies =
        Counter.builder("agentteams.mailbox.inbox.leased")
            .description("Inbox messages returned by reads of what is new, each under a lease")
            .register(meters);
    this.expiredCopies =
        Counter.builder("agentteams.mailbox.inbox.lease.expired")
            .description(
                "Inbox messages returned again because the read that leased them never"
                    + " acknowledged them within the lease")
            .register(meters);
    this.acknowledgedCopies =
        Counter.builder("agentteams.mailbox.inbox.acknowledged")
            .description("Inbox messages acknowledged by their reader, and so marked read")
            .register(meters);
  }

  /**
   * Reads the caller's inbox: what is new (leasing it), or a re-read from {@code after}.
   *
   * @param after re-read from this inbox position: no lease, nothing acknowledged
   * @param ack the lease of the reader's previous read to acknowledge, {@value #NOTHING} for none,
   *     or null to acknowledge every earlier lease of the member
   * @param limit the most messages to return (1 to {@code inbox-max-messages}, default that)
   */
  public Mono<InboxPage> read(
      Caller.Member caller,
      UUID teamId,
      @Nullable Long after,
      @Nullable String ack,
      @Nullable Integer limit) {
    // The caller is admitted before its parameters are read: an outsider learns nothing from them.
    return access
        .check(caller, teamId, MailboxPolicies.MEMBERS)
        .flatMap(
            grant -> {
              if (after != null && after < 0) {
                return Mono.error(MessageProblems.invalidAfter());
              }
              if (after != null && ack != null) {
                return Mono.error(MessageProblems.ackWithAfter());
              }
              if (limit != null && (limit < 1 || limit > maxMessages)) {
                return Mono.error(MessageProblems.invalidLimit(maxMessages, limit));
              }
              Optional<Acknowledgement> acknowledgement = Acknowledgement.parse(ack);
              if (acknowledgement.isEmpty()) {
                return Mono.error(MessageProblems.invalidAck());
              }
              int size = limit == null ? maxMessages : limit;
              return transactions.transactional(
                  after != null
                      ? reRead(teamId, grant.member().name(), after, size)
                      : readNew(grant, teamId, acknowledgement.get(), size));
            });
  }

  /**
   * Completes when the caller is a member of the team, so that an acknowledgement's body is read
   * only once its caller is admitted; fails with the same not-found as any other refusal otherwise.
   */
  public Mono<Void> admit(Caller.Member caller, UUID teamId) {
    return access.check(caller, teamId, MailboxPolicies.MEMBERS).then();
  }

  /**
   * Acknowledges one read's lease without reading more: its messages are marked read.
   *
   * @return the member's cursor after it
   */
  public Mono<Acknowledged> acknowledge(Caller.Member caller, UUID teamId, @Nullable String lease) {
    return access
        .check(caller, teamId, MailboxPolicies.MEMBERS)
        .flatMap(
            grant -> {
              Optional<Acknowledgement> acknowledgement = Acknowledgement.parse(lease);
              if (acknowledgement.isEmpty() || acknowledgement.get().lease() == null) {
                return Mono.error(MessageProblems.invalidAck());
              }
              return transactions.transactional(
                  store
                      .lockCursor(teamId, grant.member().name())
                      .flatMap(
                          cursor ->
                              acknowledge(
                                  grant,
                                  teamId,
                                  grant.member().name(),
                                  cursor,
                                  acknowledgement.get())));
            })
        .doOnNext(done -> acknowledgedCopies.increment(done.acknowledged()));
  }

  private Mono<InboxPage> reRead(UUID teamId, String member, long after, int size) {
    Instant now = clock.instant();
    return store
        .lockCursor(teamId, member)
        .flatMap(
            cursor ->
                store
                    .inboxAfter(teamId, member, after, size + 1)
                    .map(InboxReading::item)
                    .collectList()
                    .zipWith(store.leased(teamId, member, cursor, now))
                    .map(
                        found -> {
                          Fitted fitted = fit(teamId, member, found.getT1(), size);
                          return new InboxPage(
                              teamId,
                              member,
                              fitted.items(),
                              cursor,
                              fitted.more(),
                              null,
                              null,
                              found.getT2());
                        }));
  }

  private Mono<InboxPage> readNew(Grant<Roster> grant, UUID teamId, Acknowledgement ack, int size) {
    String member = grant.member().name();
    Instant now = clock.instant();
    return store
        .lockCursor(teamId, member)
        .flatMap(cursor -> acknowledge(grant, teamId, member, cursor, ack))
        .flatMap(
            acknowledged ->
                store
                    .leasable(teamId, member, acknowledged.readCursor(), now, size + 1)
                    .collectList()
                    .flatMap(
                        candidates ->
                            lease(teamId, member, acknowledged.readCursor(), candidates, size, now))
                    .doOnNext(page -> acknowledgedCopies.increment(acknowledged.acknowledged())));
  }

  /** Leases the candidates that fit the page's budget to a new lease and answers them. */
  private Mono<InboxPage> lease(
      UUID teamId,
      String member,
      long cursor,
      List<DeliveryStore.Leasable> candidates,
      int size,
      Instant now) {
    Fitted fitted =
        fit(teamId, member, candidates.stream().map(c -> item(c.entry())).toList(), size);
    if (fitted.items().isEmpty()) {
      return store
          .leased(teamId, member, cursor, now)
          .map(
              leased ->
                  new InboxPage(teamId, member, List.of(), cursor, false, null, null, leased));
    }
    UUID lease = UUID.randomUUID();
    Instant until = now.plus(leaseTime);
    List<Long> sequences = fitted.items().stream().map(InboxPage.Item::sequence).toList();
    long expired =
        candidates.stream()
            .filter(c -> sequences.contains(c.entry().sequence()) && c.leasedBefore())
            .count();
    return store
        .lease(teamId, member, sequences, lease, until)
        .then(store.leased(teamId, member, cursor, now))
        .map(
            leased -> {
              leasedCopies.increment(sequences.size());
              expiredCopies.increment(expired);
              return new InboxPage(
                  teamId,
                  member,
                  fitted.items(),
                  sequences.get(sequences.size() - 1),
                  fitted.more(),
                  lease,
                  until,
                  leased);
            });
  }

  /** The page the entries fill within the budget. */
  private Fitted fit(UUID teamId, String member, List<InboxPage.Item> entries, int size) {
    List<InboxPage.Item> candidates = entries.subList(0, Math.min(size, entries.size()));
    ResponseBudget.Fit<InboxPage.Item> fit =
        budget.fit(
            candidates,
            items ->
                new InboxPage(
                    teamId,
                    member,
                    items,
                    Long.MAX_VALUE,
                    true,
                    new UUID(Long.MAX_VALUE, Long.MAX_VALUE),
                    LATEST,
                    Long.MAX_VALUE),
            SHORTENER);
    return new Fitted(fit.records(), entries.size() > size || fit.cut());
  }

  /**
   * Marks read what the acknowledged lease (or every lease) holds, moves the cursor over it, and
   * announces it with {@code MessageRead}.
   */
  private Mono<Acknowledged> acknowledge(
      Grant<Roster> grant, UUID teamId, String member, long cursor, Acknowledgement ack) {
    if (ack.nothing()) {
      return Mono.just(new Acknowledged(cursor, 0));
    }
    return store
        .acknowledge(teamId, member, cursor, ack.lease())
        .flatMap(
            read ->
                read.isEmpty()
                    ? Mono.just(new Acknowledged(cursor, 0))
                    : store
                        .advanceCursor(teamId, member)
                        .flatMap(
                            moved ->
                                announceRead(grant, teamId, member, read, moved)
                                    .thenReturn(new Acknowledged(moved, read.size()))));
  }

  /** {@code MessageRead} for the copies just acknowledged. */
  private Mono<Void> announceRead(
      Grant<Roster> grant,
      UUID teamId,
      String member,
      List<DeliveryStore.ReadCopy> read,
      long cursor) {
    MessageRead event =
        new MessageRead(
            teamId.toString(),
            member,
            read.stream().map(copy -> copy.messageId().toString()).toList(),
            cursor,
            clock.instant().toString());
    return outbox
        .append(Topics.MAILBOX_EVENTS, teamId.toString(), grant.ownerId(), cursor, event)
        .then();
  }

  private static InboxPage.Item item(DeliveryStore.InboxEntry entry) {
    Message m = entry.message().message();
    return new InboxPage.Item(
        m.id(),
        entry.sequence(),
        m.kind().wire(),
        m.sender().kind().wire(),
        m.sender().name(),
        m.systemKind() == null ? null : m.systemKind().wire(),
        m.jobId(),
        m.conversationId(),
        entry.message().sentAt(),
        entry.deliveredAt(),
        m.text(),
        false);
  }

  /**
   * What an acknowledgement did.
   *
   * @param readCursor the member's cursor after it: every message at or below it is read
   * @param acknowledged how many messages it marked read
   */
  public record Acknowledged(long readCursor, int acknowledged) {}

  private record Fitted(List<InboxPage.Item> items, boolean more) {}

  /** What a read acknowledges: nothing, one lease, or (null lease) every lease of the member. */
  private record Acknowledgement(boolean nothing, @Nullable UUID lease) {

    static Optional<Acknowledgement> parse(@Nullable String ack) {
      if (ack == null) {
        return Optional.of(new Acknowledgement(false, null));
      }
      if (NOTHING.equals(ack)) {
        return Optional.of(new Acknowledgement(true, null));
      }
      try {
        return Optional.of(new Acknowledgement(false, UUID.fromString(ack)));
      } catch (IllegalArgumentException notALease) {
        return Optional.empty();
      }
    }
  }
}
