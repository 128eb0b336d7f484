package io.agentteams.mailbox.message.application;

import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.access.MailboxPolicies;
import io.agentteams.mailbox.message.domain.Addressing;
import io.agentteams.mailbox.message.domain.Message;
import io.agentteams.mailbox.message.domain.MessageLimits;
import io.agentteams.mailbox.message.domain.MessageProblems;
import io.agentteams.mailbox.message.domain.Sender;
import io.agentteams.mailbox.message.domain.SystemKind;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.platform.access.Acting;
import io.agentteams.platform.access.Grant;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.roster.Roster;
import io.agentteams.platform.roster.RosterAccess;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Sends messages: the message, one queued delivery per recipient and {@code MessageQueued} commit
 * in one transaction, which {@link SendBatcher} shares with the sends that arrived at the same
 * time. A team's sends are serialised on its mailbox row, so message sequences, per-recipient
 * sequences and outbox order agree.
 */
@Service
public class MessageSending {

  private final RosterAccess access;
  private final SendBatcher batcher;
  private final MessageLimits limits;
  private final MeterRegistry meters;

  public MessageSending(
      RosterAccess access,
      SendBatcher batcher,
      MailboxProperties properties,
      MeterRegistry meters) {
    this.access = access;
    this.batcher = batcher;
    this.limits = properties.messageLimits();
    this.meters = meters;
  }

  /**
   * Sends a message as the caller. A retry with the same client message id returns the message
   * already sent; the same id with a different message is a conflict.
   */
  public Mono<Sent> send(Caller caller, UUID teamId, SendRequest request) {
    return author(caller, teamId, request)
        .map(
            author ->
                Message.compose(
                    UUID.randomUUID(),
                    teamId,
                    author.roster().ownerId(),
                    author.sender(),
                    new Addressing(request.to(), request.broadcast()),
                    request.systemKind() == null ? null : SystemKind.fromWire(request.systemKind()),
                    author.roster().members().stream().map(Roster.Member::name).toList(),
                    author.provenance(),
                    request.clientMessageId(),
                    request.text(),
                    limits))
        .flatMap(message -> batcher.send(message).flatMap(stored -> outcome(stored, message)))
        .doOnNext(
            sent -> {
              if (!sent.replayed()) {
                meters
                    .counter(
                        "agentteams.mailbox.messages.sent",
                        "kind",
                        sent.queued().recorded().message().kind().wire(),
                        "sender",
                        sent.queued().recorded().message().sender().kind().wire())
                    .increment();
              }
            });
  }

  private static Mono<Sent> outcome(MessageStore.Stored stored, Message message) {
    return stored.sentBefore()
        ? replay(stored.queued(), message)
        : Mono.just(new Sent(stored.queued(), false));
  }

  private static Mono<Sent> replay(MessageStore.Queued existing, Message retry) {
    if (existing.recorded().message().sameRequestAs(retry)) {
      return Mono.just(new Sent(existing, true));
    }
    return Mono.error(
        MessageProblems.clientMessageIdReused(
            retry.clientMessageId(), existing.recorded().message().id()));
  }

  /**
   * Completes when the caller may send to the team; the refusal otherwise. Sends ask first, before
   * their body is read, so an outsider learns only "not found" whatever it sends.
   */
  public Mono<Void> admit(Caller caller, UUID teamId) {
    return access.check(caller, teamId, MailboxPolicies.SENDERS).then();
  }

  private Mono<Author> author(Caller caller, UUID teamId, SendRequest request) {
    return refuseBodyJob(caller, request)
        .then(access.check(caller, teamId, MailboxPolicies.SENDERS))
        .map(grant -> author(grant, request));
  }

  /** A member's job comes from its token and an owner's message has none. */
  private static Mono<Void> refuseBodyJob(Caller caller, SendRequest request) {
    if (request.jobId() == null) {
      return Mono.empty();
    }
    if (caller instanceof Caller.Member) {
      return Mono.error(
          MessageProblems.jobIdNotAllowed(
              "a member's job comes from its token, not from the body"));
    }
    if (caller instanceof Caller.Owner) {
      return Mono.error(MessageProblems.jobIdNotAllowed("an owner's message has no job"));
    }
    return Mono.empty();
  }

  private static Author author(Grant<Roster> grant, SendRequest request) {
    Roster roster = grant.team();
    if (grant.as() instanceof Acting.AsMember member) {
      String conversation = roster.member(member.name()).orElseThrow().conversationId();
      return new Author(
          roster,
          Sender.member(member.name()),
          new Message.Provenance(
              member.jobId() == null ? null : member.jobId().toString(), conversation));
    }
    if (grant.as() instanceof Acting.AsOwner) {
      return new Author(roster, Sender.owner(), Message.Provenance.none());
    }
    return new Author(roster, Sender.system(), new Message.Provenance(request.jobId(), null));
  }

  private record Author(Roster roster, Sender sender, Message.Provenance provenance) {}

  /**
   * The outcome of a send.
   *
   * @param queued the message and its recipients' copies
   * @param replayed whether it had already been sent under the same client message id
   */
  public record Sent(MessageStore.Queued queued, boolean replayed) {}
}
