package io.agentteams.mailbox.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.agentteams.contracts.mailbox.MessageDelivered;
import io.agentteams.contracts.mailbox.MessageQueued;
import io.agentteams.mailbox.MailboxProperties;
import io.agentteams.mailbox.MailboxServiceTest;
import io.agentteams.mailbox.message.application.MessageSending;
import io.agentteams.mailbox.message.application.SendBatcher;
import io.agentteams.mailbox.message.application.SendRequest;
import io.agentteams.mailbox.message.persistence.MessageStore;
import io.agentteams.mailbox.support.DeliveryProbe;
import io.agentteams.mailbox.support.TeamFixture;
import io.agentteams.platform.event.EventCodec;
import io.agentteams.platform.event.EventEnvelope;
import io.agentteams.platform.identity.Caller;
import io.agentteams.platform.identity.CallerTokens;
import io.agentteams.platform.outbox.Outbox;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.platform.roster.RosterAccess;
import io.agentteams.platform.roster.Rosters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.handler.TracingObservationHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Sends written together in one transaction ({@link SendBatcher}) keep every guarantee of a single
 * send: gapless team and inbox sequences in send order, outbox events in sequence order with their
 * own traces, idempotent client message ids, and all-or-nothing batches, also with a second replica
 * batching its own sends against the same database.
 */
@MailboxServiceTest
class SendBatchingIntegrationTest {

  private static final String BATCH_SIZE = "agentteams.mailbox.send.batch.size";
  private static final String QUEUED = "agentteams.mailbox.send.queued";

  @Autowired KafkaTemplate<Object, Object> kafka;
  @Autowired EventCodec codec;
  @Autowired Rosters rosters;
  @Autowired CallerTokens tokens;
  @Autowired DatabaseClient db;
  @Autowired TransactionalOperator transactions;
  @Autowired MeterRegistry meters;
  @Autowired MessageSending sending;
  @Autowired MessageStore store;
  @Autowired Outbox outbox;
  @Autowired RosterAccess access;
  @Autowired MailboxProperties properties;
  @Autowired ObservationRegistry observations;

  private TeamFixture teams;
  private DeliveryProbe probe;

  @BeforeEach
  void setUp() {
    teams = new TeamFixture(kafka, codec, rosters, tokens);
    probe = new DeliveryProbe(db);
  }

  /** A second replica: its own batcher and meters on the same database and outbox. */
  private record Replica(MessageSending sending, MeterRegistry meters) {}

  private Replica otherReplica() {
    MeterRegistry own = new SimpleMeterRegistry();
    return new Replica(
        new MessageSending(
            access, new SendBatcher(store, outbox, transactions, properties, own), properties, own),
        own);
  }

  private static String spanOf(Observation observation) {
    TracingObservationHandler.TracingContext tracing =
        observation.getContext().getRequired(TracingObservationHandler.TracingContext.class);
    return tracing.getSpan().context().traceId() + "-" + tracing.getSpan().context().spanId();
  }

  private Replica thisReplica() {
    return new Replica(sending, meters);
  }

  @Test
  void concurrentSendsOfManyTeamsOnTwoReplicasKeepSequencesGaplessAndInSendOrder() {
    List<String> members = List.of("m1", "m2", "m3", "m4");
    int perChain = 12;
    List<TeamFixture.Team> teamList = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      teamList.add(teams.team("owner-batch-" + t, members.toArray(String[]::new)));
    }
    Replica one = thisReplica();
    Replica two = otherReplica();
    Batches before = Batches.of(one.meters());

    // Every member of every team sends a chain of messages, one after the other, while all chains
    // run at once on the two replicas; each send carries its own trace.
    Map<String, String> spanOf = new ConcurrentHashMap<>();
    record Chain(TeamFixture.Team team, String sender, Replica replica) {}
    List<Chain> chains = new ArrayList<>();
    for (int t = 0; t < teamList.size(); t++) {
      for (int s = 0; s < members.size(); s++) {
        chains.add(new Chain(teamList.get(t), members.get(s), (t + s) % 2 == 0 ? one : two));
      }
    }
    Map<Chain, List<MessageSending.Sent>> sentBy = new ConcurrentHashMap<>();
    Flux.fromIterable(chains)
        .flatMap(
            chain ->
                Flux.range(0, perChain)
                    .concatMap(
                        k -> {
                          int self = members.indexOf(chain.sender());
                          String to = members.get((self + 1 + k % 3) % members.size());
                          boolean broadcast = k % 5 == 4;
                          Observation request = Observation.start("send", observations);
                          return send(
                                  chain.replica(),
                                  chain.team(),
                                  chain.sender(),
                                  broadcast ? null : to,
                                  chain.sender() + " #" + k,
                                  null)
                              .contextWrite(c -> c.put(ObservationThreadLocalAccessor.KEY, request))
                              .doFinally(signal -> request.stop())
                              .doOnNext(
                                  sent ->
                                      spanOf.put(
                                          sent.queued().recorded().message().id().toString(),
                                          spanOf(request)));
                        })
                    .collectList()
                    .doOnNext(sent -> sentBy.put(chain, sent)),
            chains.size())
        .blockLast(Duration.ofSeconds(120));

    // The batcher really batched: fewer transactions than sends on this replica.
    Batches after = Batches.of(one.meters());
    long sendsHere = chains.stream().filter(c -> c.replica() == one).count() * perChain;
    assertThat(after.sends() - before.sends()).isEqualTo(sendsHere);
    assertThat(after.batches() - before.batches())
        .as("batches for %d sends", sendsHere)
        .isLessThan(sendsHere);

    for (TeamFixture.Team team : teamList) {
      List<Chain> ofTeam = chains.stream().filter(c -> c.team().equals(team)).toList();
      long total = (long) ofTeam.size() * perChain;
      Map<String, Long> sequenceOf = new HashMap<>();
      List<String> sentIds = new ArrayList<>();
      rows("SELECT id::text AS id, seq FROM message WHERE team_id = :team ORDER BY seq", team.id())
          .forEach(
              row -> {
                sentIds.add((String) row.get("id"));
                sequenceOf.put((String) row.get("id"), ((Number) row.get("seq")).longValue());
              });
      assertThat(sentIds.stream().map(sequenceOf::get).toList())
          .as("message sequences of %s", team.id())
          .isEqualTo(oneTo(total));
      assertThat(teamCounter(team.id())).isEqualTo(total);

      // Each sender's messages took increasing sequences in the order it sent them, and each
      // send was told the sequences the database holds.
      Map<String, Map<String, Long>> inboxSequence = inboxSequences(team.id());
      for (Chain chain : ofTeam) {
        List<MessageSending.Sent> sent = sentBy.get(chain);
        assertThat(sent).hasSize(perChain);
        List<Long> sequences = new ArrayList<>();
        for (MessageSending.Sent each : sent) {
          String id = each.queued().recorded().message().id().toString();
          assertThat(each.replayed()).isFalse();
          assertThat(each.queued().recorded().sequence()).isEqualTo(sequenceOf.get(id));
          sequences.add(each.queued().recorded().sequence());
          for (MessageStore.Queued.Recipient copy : each.queued().recipients()) {
            assertThat(copy.sequence()).isEqualTo(inboxSequence.get(copy.member()).get(id));
          }
        }
        assertThat(sequences).as("%s's sequences", chain.sender()).isSorted();
      }

      // Every inbox is gapless, and holds each sender's messages in the order they were sent.
      for (String recipient : members) {
        List<String> inbox =
            rows(
                    "SELECT message_id::text AS id FROM delivery WHERE team_id = :team"
                        + " AND recipient = '"
                        + recipient
                        + "' ORDER BY seq",
                    team.id())
                .stream()
                .map(r -> (String) r.get("id"))
                .toList();
        assertThat(inboxSequence.get(recipient).values().stream().sorted().toList())
            .as("inbox sequences of %s", recipient)
            .isEqualTo(oneTo(inbox.size()));
        assertThat(memberCounter(team.id(), recipient)).isEqualTo(inbox.size());
        assertThat(inbox.stream().map(sequenceOf::get).toList())
            .as("message sequences in the inbox of %s", recipient)
            .isSortedAccordingTo(Long::compare)
            .doesNotHaveDuplicates();
        for (Chain chain : ofTeam) {
          List<String> sentToRecipient =
              sentBy.get(chain).stream()
                  .filter(
                      s ->
                          s.queued().recipients().stream()
                              .anyMatch(c -> c.member().equals(recipient)))
                  .map(s -> s.queued().recorded().message().id().toString())
                  .toList();
          assertThat(inbox.stream().filter(sentToRecipient::contains).toList())
              .as("%s's messages to %s", chain.sender(), recipient)
              .isEqualTo(sentToRecipient);
        }
      }

      // The outbox holds one MessageQueued per message, in sequence order, each with the trace of
      // the send that wrote it and the inbox sequences the deliveries hold.
      List<EventEnvelope> queuedEvents =
          events(team.id()).stream().filter(e -> e.type().equals(MessageQueued.TYPE)).toList();
      assertThat(queuedEvents.stream().map(EventEnvelope::sequence).toList())
          .as("MessageQueued order of %s", team.id())
          .isEqualTo(oneTo(total));
      for (EventEnvelope envelope : queuedEvents) {
        MessageQueued event = codec.data(envelope, MessageQueued.class);
        assertThat(event.messageId()).isEqualTo(sentIds.get((int) envelope.sequence() - 1));
        assertThat(envelope.trace()).isNotNull();
        assertThat(envelope.trace().traceId() + "-" + envelope.trace().spanId())
            .isEqualTo(spanOf.get(event.messageId()));
        for (MessageQueued.Recipient copy : event.recipients()) {
          assertThat(copy.sequence())
              .isEqualTo(inboxSequence.get(copy.member()).get(event.messageId()));
        }
      }
    }

    // Every copy reaches its inbox, and is announced delivered once, in inbox order.
    Awaitility.await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> teamList.stream().allMatch(t -> probe.queued(t.id()) == 0));
    for (TeamFixture.Team team : teamList) {
      Map<String, List<Long>> announced = new LinkedHashMap<>();
      for (EventEnvelope envelope : events(team.id())) {
        if (envelope.type().equals(MessageDelivered.TYPE)) {
          MessageDelivered delivered = codec.data(envelope, MessageDelivered.class);
          delivered
              .copies()
              .forEach(
                  copy ->
                      announced
                          .computeIfAbsent(delivered.recipient(), k -> new ArrayList<>())
                          .add(copy.sequence()));
        }
      }
      Map<String, Map<String, Long>> inboxSequence = inboxSequences(team.id());
      for (String recipient : members) {
        assertThat(announced.get(recipient))
            .as("delivered announcements of %s", recipient)
            .isEqualTo(oneTo(inboxSequence.get(recipient).size()));
      }
    }
  }

  @Test
  void aReusedClientMessageIdFailsOnlyItsOwnSendAndTheRestOfTheBatchCommits() {
    var team = teams.team("owner-reuse", "lead", "a", "b");
    var other = teams.team("owner-reuse", "lead", "a");
    MessageSending.Sent first = send(team, "lead", "a", "first", "c0").block();
    send(team, "lead", "a", "original", "c1").block();
    Replica one = thisReplica();
    Blocker blocker = blockBatcher(one);

    var conflicting = send(team, "lead", "a", "changed", "c1").toFuture();
    var retry = send(team, "lead", "a", "first", "c0").toFuture();
    var fresh = send(team, "a", "lead", "fresh", null).toFuture();
    var otherTeam = send(other, "lead", "a", "other team", null).toFuture();
    var newId = send(team, "lead", "b", "new id", "c2").toFuture();
    var sameIdOtherSender = send(team, "a", "b", "same id, other sender", "c1").toFuture();
    awaitQueued(one, 6);
    blocker.release();

    assertThat(blocker.sent().join().replayed()).isFalse();
    assertThatConflict(conflicting);
    assertThat(retry.join().replayed()).isTrue();
    assertThat(retry.join().queued().recorded().message().id())
        .isEqualTo(first.queued().recorded().message().id());
    assertThat(List.of(fresh.join(), otherTeam.join(), newId.join(), sameIdOtherSender.join()))
        .noneMatch(MessageSending.Sent::replayed);
    // One batch for the blocker's send, then all six together.
    Batches after = Batches.of(one.meters());
    assertThat(after.batches() - blocker.before().batches()).isEqualTo(2);
    assertThat(after.sends() - blocker.before().sends()).isEqualTo(7);

    assertThat(messageSequences(team.id())).isEqualTo(oneTo(5));
    assertThat(textsInOrder(team.id()))
        .doesNotContain("changed")
        .containsExactlyInAnyOrder("first", "original", "fresh", "new id", "same id, other sender");
    assertThat(messageSequences(other.id())).isEqualTo(oneTo(1));
    assertThat(queuedEventSequences(team.id())).isEqualTo(oneTo(5));
  }

  @Test
  void concurrentRetriesOfOneClientMessageIdOnTwoReplicasWriteOneMessage() {
    var team = teams.team("owner-retries", "lead", "a");
    send(team, "lead", "a", "opens the mailbox", null).block();
    Replica one = thisReplica();
    Replica two = otherReplica();
    Batches before = Batches.of(one.meters());
    TeamLock lock = lockTeam(team.id());

    // The first retry of each replica waits for the team; the others queue behind it, and since
    // they share a client message id, each must go in a batch of its own.
    List<CompletableFuture<MessageSending.Sent>> retries = new ArrayList<>();
    for (Replica replica : List.of(one, two)) {
      for (int i = 0; i < 4; i++) {
        retries.add(send(replica, team, "lead", "a", "exactly once", "retry-me").toFuture());
      }
    }
    awaitQueued(one, 3);
    awaitQueued(two, 3);
    lock.release();

    List<MessageSending.Sent> outcomes = retries.stream().map(CompletableFuture::join).toList();
    assertThat(outcomes.stream().map(s -> s.queued().recorded().message().id()).distinct())
        .hasSize(1);
    assertThat(outcomes.stream().filter(s -> !s.replayed())).hasSize(1);
    assertThat(outcomes).allMatch(s -> s.queued().recorded().sequence() == 2);
    Batches after = Batches.of(one.meters());
    assertThat(after.batches() - before.batches()).isEqualTo(4);
    assertThat(after.sends() - before.sends()).isEqualTo(4);
    assertThat(messageSequences(team.id())).isEqualTo(oneTo(2));
    assertThat(queuedEventSequences(team.id())).isEqualTo(oneTo(2));
    assertThat(inboxSequences(team.id()).get("a")).hasSize(2);
  }

  @Test
  void sendsOfANewClientMessageIdQueuedTogetherGoInSeparateBatchesAndTheLaterOnesReplay() {
    var team = teams.team("owner-new-id", "lead", "a");
    Replica one = thisReplica();
    Blocker blocker = blockBatcher(one);

    List<CompletableFuture<MessageSending.Sent>> sameId = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sameId.add(send(team, "lead", "a", "new", "brand-new").toFuture());
    }
    var unrelated = send(team, "a", "lead", "unrelated", null).toFuture();
    awaitQueued(one, 4);
    blocker.release();

    List<MessageSending.Sent> outcomes = sameId.stream().map(CompletableFuture::join).toList();
    assertThat(outcomes.stream().filter(s -> !s.replayed())).hasSize(1);
    assertThat(outcomes.stream().map(s -> s.queued().recorded().message().id()).distinct())
        .hasSize(1);
    assertThat(unrelated.join().replayed()).isFalse();
    // The blocker's batch, then the first of the same id with the unrelated send, then one each.
    Batches after = Batches.of(one.meters());
    assertThat(after.batches() - blocker.before().batches()).isEqualTo(4);
    assertThat(after.sends() - blocker.before().sends()).isEqualTo(5);
    assertThat(textsInOrder(team.id())).containsExactlyInAnyOrder("new", "unrelated");
    assertThat(queuedEventSequences(team.id())).isEqualTo(oneTo(2));
  }

  @Test
  void aBatchWhoseTransactionFailsFailsEverySendInItAndWritesNothing() {
    var team = teams.team("owner-poison", "lead", "a");
    var other = teams.team("owner-poison", "lead", "a");
    send(team, "lead", "a", "before", null).block();
    send(other, "lead", "a", "before", null).block();
    Replica one = thisReplica();
    db.sql(
            """
            CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.text = 'poison' THEN RAISE EXCEPTION 'poisoned batch'; END IF;
              RETURN NEW;
            END $$
            """)
        .then()
        .then(
            db.sql(
                    "CREATE TRIGGER refuse_poison BEFORE INSERT ON message"
                        + " FOR EACH ROW EXECUTE FUNCTION refuse_poison()")
                .then())
        .block();
    try {
      Blocker blocker = blockBatcher(one);
      List<CompletableFuture<MessageSending.Sent>> batch =
          List.of(
              send(team, "a", "lead", "innocent", null).toFuture(),
              send(team, "lead", "a", "poison", null).toFuture(),
              send(other, "lead", "a", "innocent too", "c-poisoned").toFuture());
      awaitQueued(one, 3);
      blocker.release();
      blocker.sent().join();

      for (CompletableFuture<MessageSending.Sent> send : batch) {
        assertThat(send)
            .failsWithin(Duration.ofSeconds(30))
            .withThrowableThat()
            .havingRootCause()
            .withMessageContaining("poisoned batch");
      }
    } finally {
      db.sql("DROP TRIGGER refuse_poison ON message").then().block();
      db.sql("DROP FUNCTION refuse_poison()").then().block();
    }

    for (UUID id : List.of(team.id(), other.id())) {
      assertThat(textsInOrder(id)).containsExactly("before");
      assertThat(teamCounter(id)).isEqualTo(1);
      assertThat(memberCounter(id, "a")).isEqualTo(1);
      assertThat(memberCounter(id, "lead")).isZero();
      assertThat(queuedEventSequences(id)).isEqualTo(oneTo(1));
    }
    // The failed batch took no sequences: the retry continues where the team stood.
    MessageSending.Sent again = send(other, "lead", "a", "innocent too", "c-poisoned").block();
    assertThat(again.replayed()).isFalse();
    assertThat(again.queued().recorded().sequence()).isEqualTo(2);
    assertThat(again.queued().recipients().get(0).sequence()).isEqualTo(2);
  }

  // --- sending and holding sends back

  private Mono<MessageSending.Sent> send(
      TeamFixture.Team team,
      String sender,
      @Nullable String to,
      String text,
      @Nullable String clientMessageId) {
    return send(thisReplica(), team, sender, to, text, clientMessageId);
  }

  /** A member's send; {@code to} null broadcasts. */
  private static Mono<MessageSending.Sent> send(
      Replica replica,
      TeamFixture.Team team,
      String sender,
      @Nullable String to,
      String text,
      @Nullable String clientMessageId) {
    return replica
        .sending()
        .send(
            new Caller.Member(team.ownerId(), team.id(), sender, null),
            team.id(),
            new SendRequest(to, to == null, text, clientMessageId, null, null));
  }

  /** A transaction holding a team's mailbox row, which every send of that team waits for. */
  private record TeamLock(Sinks.Empty<Void> releaser, CompletableFuture<?> done) {
    void release() {
      releaser.tryEmitEmpty();
      done.join();
    }
  }

  private TeamLock lockTeam(UUID team) {
    Sinks.Empty<Void> releaser = Sinks.empty();
    AtomicBoolean held = new AtomicBoolean();
    CompletableFuture<?> done =
        transactions
            .transactional(
                db.sql("SELECT team_id FROM team_mailbox WHERE team_id = :team FOR UPDATE")
                    .bind("team", team)
                    .fetch()
                    .rowsUpdated()
                    .then(Mono.fromRunnable(() -> held.set(true)))
                    .then(releaser.asMono()))
            .toFuture();
    Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(held);
    return new TeamLock(releaser, done);
  }

  /** A send of its own team, held in its batch's transaction until released. */
  private record Blocker(
      TeamLock lock, CompletableFuture<MessageSending.Sent> sent, Batches before) {
    void release() {
      lock.release();
    }
  }

  /**
   * Keeps the replica's batcher busy with a lone send waiting for its team, so the sends that come
   * next queue up and go together in the batch after it. {@code before} is the replica's batches
   * before the blocker's own.
   */
  private Blocker blockBatcher(Replica replica) {
    var team = teams.team("owner-blocker", "lead", "a");
    send(replica, team, "lead", "a", "opens the mailbox", null).block();
    TeamLock lock = lockTeam(team.id());
    Batches before = Batches.of(replica.meters());
    var sent = send(replica, team, "lead", "a", "held back", null).toFuture();
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> Batches.of(replica.meters()).batches() > before.batches());
    return new Blocker(lock, sent, before);
  }

  private static void awaitQueued(Replica replica, int sends) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> replica.meters().get(QUEUED).gauge().value() == sends);
  }

  /** Batches written and the sends in them so far, from a replica's batch size summary. */
  private record Batches(long batches, long sends) {
    static Batches of(MeterRegistry meters) {
      DistributionSummary sizes = meters.find(BATCH_SIZE).summary();
      return sizes == null
          ? new Batches(0, 0)
          : new Batches(sizes.count(), (long) sizes.totalAmount());
    }
  }

  private static void assertThatConflict(CompletableFuture<MessageSending.Sent> send) {
    try {
      send.join();
      fail("a reused client message id was accepted");
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(DomainFailure.class);
      DomainFailure problem = (DomainFailure) e.getCause();
      assertThat(problem.kind()).isEqualTo(DomainFailure.Kind.CONFLICT);
      assertThat(problem.code()).isEqualTo("client-message-id-reused");
    }
  }

  // --- what the database holds

  private List<Map<String, Object>> rows(String sql, UUID team) {
    return db.sql(sql).bind("team", team).fetch().all().collectList().block();
  }

  private List<Long> messageSequences(UUID team) {
    return rows("SELECT seq FROM message WHERE team_id = :team ORDER BY seq", team).stream()
        .map(r -> ((Number) r.get("seq")).longValue())
        .toList();
  }

  private List<String> textsInOrder(UUID team) {
    return rows("SELECT text FROM message WHERE team_id = :team ORDER BY seq", team).stream()
        .map(r -> (String) r.get("text"))
        .toList();
  }

  /** Per recipient: message id to inbox sequence. */
  private Map<String, Map<String, Long>> inboxSequences(UUID team) {
    Map<String, Map<String, Long>> inboxes = new HashMap<>();
    rows("SELECT recipient, message_id::text AS id, seq FROM delivery WHERE team_id = :team", team)
        .forEach(
            r ->
                inboxes
                    .computeIfAbsent((String) r.get("recipient"), k -> new HashMap<>())
                    .put((String) r.get("id"), ((Number) r.get("seq")).longValue()));
    return inboxes;
  }

  private long teamCounter(UUID team) {
    return rows("SELECT last_message_seq FROM team_mailbox WHERE team_id = :team", team).stream()
        .mapToLong(r -> ((Number) r.get("last_message_seq")).longValue())
        .sum();
  }

  private long memberCounter(UUID team, String member) {
    return rows(
            "SELECT last_seq FROM member_mailbox WHERE team_id = :team AND member = '"
                + member
                + "'",
            team)
        .stream()
        .mapToLong(r -> ((Number) r.get("last_seq")).longValue())
        .sum();
  }

  /** The team's events in the outbox, in the order the relay publishes them. */
  private List<EventEnvelope> events(UUID team) {
    return db.sql("SELECT payload FROM platform.outbox WHERE message_key = :team ORDER BY id")
        .bind("team", team.toString())
        .map(row -> codec.read(row.get("payload", String.class)))
        .all()
        .collectList()
        .block();
  }

  private List<Long> queuedEventSequences(UUID team) {
    return events(team).stream()
        .filter(e -> e.type().equals(MessageQueued.TYPE))
        .map(EventEnvelope::sequence)
        .toList();
  }

  private static List<Long> oneTo(long n) {
    return LongStream.rangeClosed(1, n).boxed().toList();
  }
}
