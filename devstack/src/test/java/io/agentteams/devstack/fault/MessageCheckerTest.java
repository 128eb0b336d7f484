package io.agentteams.devstack.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.Messaging.Inbox;
import io.agentteams.devstack.fault.Messaging.Item;
import io.agentteams.devstack.fault.Messaging.Read;
import io.agentteams.devstack.fault.Messaging.Send;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The message checker finds each anomaly in a record made to show it, and nothing in a clean one.
 */
class MessageCheckerTest {

  private static final String TEAM = "t";

  private final History<Send> sends = new History<>();
  private final History<Read> reads = new History<>();
  private final Map<Inbox, List<Item>> inboxes = new LinkedHashMap<>();
  private long clock;

  @Test
  void aCleanRecordHasNoAnomaly() {
    send("a", "b", 1, "id-1", Outcome.OK);
    send("a", "b", 2, "id-2", Outcome.OK);
    stored("b", item("id-1", 1, "a", 1), item("id-2", 2, "a", 2));
    stored("a");
    read("b", null, item("id-1", 1, "a", 1));
    read("b", null, item("id-2", 2, "a", 2));

    assertThat(check()).isEmpty();
  }

  @Test
  void anAcknowledgedMessageMissingFromItsRecipientsInboxIsReportedWithTheSend() {
    send("a", "b", 1, "id-1", Outcome.OK);
    stored("b");
    stored("a");

    assertThat(check())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.kind()).isEqualTo(Kind.ACKNOWLEDGED_MISSING);
              assertThat(a.evidence()).contains("a-1", "id-1", "inbox of b");
            });
  }

  @Test
  void aStoredMessageNoReaderGotIsLost() {
    send("a", "b", 1, "id-1", Outcome.OK);
    stored("b", item("id-1", 1, "a", 1));
    stored("a");

    assertThat(check()).extracting(Anomaly::kind).containsExactly(Kind.LOST);
  }

  @Test
  void aMessageGivenTwiceToReadsOfWhatIsNewIsDuplicatedButARereadFromAPositionIsNot() {
    send("a", "b", 1, "id-1", Outcome.OK);
    stored("b", item("id-1", 1, "a", 1));
    stored("a");
    read("b", null, item("id-1", 1, "a", 1));
    read("b", 0L, item("id-1", 1, "a", 1));
    assertThat(check()).isEmpty();

    read("b", null, item("id-1", 1, "a", 1));
    assertThat(check()).extracting(Anomaly::kind).containsExactly(Kind.DUPLICATED);
  }

  @Test
  void aMessageReturnedAgainBecauseItsAnswerNeverArrivedIsNotDuplicated() {
    send("a", "b", 1, "id-1", Outcome.OK);
    stored("b", item("id-1", 1, "a", 1));
    stored("a");
    // The first answer (lease L1) is lost; the lease runs out and a later read gets it again.
    leased("b", "none", "L1", Outcome.INFO, item("id-1", 1, "a", 1));
    leased("b", "none", null, Outcome.OK);
    leased("b", "none", "L2", Outcome.OK, item("id-1", 1, "a", 1));
    leased("b", "L2", null, Outcome.OK);

    assertThat(check()).isEmpty();
  }

  @Test
  void aMessageReturnedBeforeItsAcknowledgementArrivedIsNotDuplicatedButAfterItIs() {
    send("a", "b", 1, "id-1", Outcome.OK);
    stored("b", item("id-1", 1, "a", 1));
    stored("a");
    // Answered, but the lease ran out before the reader acknowledged it: returned again.
    leased("b", "none", "L1", Outcome.OK, item("id-1", 1, "a", 1));
    leased("b", "none", "L2", Outcome.OK, item("id-1", 1, "a", 1));
    leased("b", "L2", null, Outcome.OK);
    assertThat(check()).isEmpty();

    // Returned once more after the reader received it under L2 and acknowledged L2.
    leased("b", "none", "L3", Outcome.OK, item("id-1", 1, "a", 1));
    assertThat(check())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.kind()).isEqualTo(Kind.DUPLICATED);
              assertThat(a.evidence()).contains("id-1", "acknowledged");
            });
  }

  @Test
  void aRetryStoredAsASecondMessageIsDuplicated() {
    send("a", "b", 1, "id-1", Outcome.INFO);
    send("a", "b", 1, "id-2", Outcome.OK);
    sends.record(
        "send-a",
        "send",
        new Send(TEAM, "a", "b", 1, "a-1", "id-1", List.of("b")),
        Outcome.OK,
        0,
        0,
        "");
    stored("b", item("id-1", 1, "a", 1), item("id-2", 2, "a", 1));
    stored("a");
    read("b", null, item("id-1", 1, "a", 1), item("id-2", 2, "a", 1));

    assertThat(check()).extracting(Anomaly::kind).contains(Kind.DUPLICATED, Kind.OUT_OF_ORDER);
  }

  @Test
  void aSendersMessagesInAnotherOrderThanSentAreOutOfOrder() {
    send("a", "b", 1, "id-1", Outcome.OK);
    send("a", "b", 2, "id-2", Outcome.OK);
    stored("b", item("id-2", 1, "a", 2), item("id-1", 2, "a", 1));
    stored("a");
    read("b", null, item("id-2", 1, "a", 2), item("id-1", 2, "a", 1));

    assertThat(check())
        .singleElement()
        .satisfies(a -> assertThat(a.kind()).isEqualTo(Kind.OUT_OF_ORDER));
  }

  @Test
  void aBroadcastIsExpectedInEveryOtherMembersInbox() {
    sends.record(
        "send-a",
        "send",
        new Send(TEAM, "a", null, 1, "a-1", "id-1", List.of("b", "c")),
        Outcome.OK,
        0,
        0,
        "");
    stored("a");
    stored("b", item("id-1", 1, "a", 1));
    stored("c");
    read("b", null, item("id-1", 1, "a", 1));

    assertThat(check())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.kind()).isEqualTo(Kind.ACKNOWLEDGED_MISSING);
              assertThat(a.evidence()).contains("inbox of c");
            });
  }

  private List<Anomaly> check() {
    return MessageChecker.check(sends.ops(), reads.ops(), inboxes);
  }

  private void send(String from, String to, int n, String id, Outcome outcome) {
    sends.record(
        "send-" + from,
        "send",
        new Send(TEAM, from, to, n, from + "-" + n, outcome == Outcome.OK ? id : null, List.of(to)),
        outcome,
        clock++,
        clock++,
        "");
  }

  /** A read that names no ack (each acknowledges every earlier one), or a re-read. */
  private void read(String member, Long after, Item... items) {
    reads.record(
        "read-" + member,
        "read",
        new Read(TEAM, member, after, null, null, List.of(items)),
        Outcome.OK,
        clock++,
        clock++,
        "");
  }

  /** A read of what is new acknowledging {@code ack}, whose answer holds {@code lease}. */
  private void leased(String member, String ack, String lease, Outcome outcome, Item... items) {
    reads.record(
        "read-" + member,
        "read",
        new Read(TEAM, member, null, ack, lease, List.of(items)),
        outcome,
        clock++,
        clock++,
        "");
  }

  private void stored(String member, Item... items) {
    inboxes.put(new Inbox(TEAM, member), new ArrayList<>(List.of(items)));
  }

  private static Item item(String id, long sequence, String sender, int n) {
    return new Item(id, sequence, sender, "m:" + sender + ":" + n);
  }
}
