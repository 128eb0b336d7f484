package io.agentteams.team.state.domain;

import static io.agentteams.team.support.TextBoundaries.assertOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.contracts.team.TeamStateUpdated;
import io.agentteams.platform.problem.LimitExceededException;
import io.agentteams.team.support.TextBoundaries;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TeamStateTest {

  private static final UUID TEAM = UUID.fromString("00000000-0000-0000-0000-0000000000aa");
  private static final Instant NOW = Instant.parse("2026-11-30T08:00:00.987654Z");
  private static final StateLimits LIMITS = StateLimits.defaults();
  private static final Author LEAD = new Author("lead", "conversation-lead", null);
  private static final Author CRITIC =
      new Author("critic", "conversation-critic", "11111111-1111-1111-1111-111111111111");

  private static TeamState empty() {
    return new TeamState(TEAM, 7, 0, List.of(), LIMITS);
  }

  private static TeamState copy(TeamState state) {
    return new TeamState(
        TEAM, state.teamRevision(), state.stateRevision(), state.entries(), LIMITS);
  }

  private static Entry publish(TeamState state, String requestId, String content) {
    return state.publish(LEAD, requestId, "finding", "Title", content, NOW).entry();
  }

  static Stream<Arguments> titleBoundaries() {
    return TextBoundaries.of("state.title", 80, 160);
  }

  static Stream<Arguments> contentBoundaries() {
    return TextBoundaries.of("state.content", 1000, 2000);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("titleBoundaries")
  void checksTheTitleAtItsCharacterAndByteBoundariesOnPublishAndUpdate(
      String label, String title, @Nullable String expected) {
    assertOutcome(() -> empty().publish(LEAD, "r1", "plan", title, "c", NOW), expected);
    TeamState state = empty();
    publish(state, "r1", "c");
    assertOutcome(
        () -> state.update(LEAD, 1, 1L, new EntryChange(null, title, null, null), NOW), expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("contentBoundaries")
  void checksTheContentAtItsCharacterAndByteBoundariesOnPublishAndUpdate(
      String label, String content, @Nullable String expected) {
    assertOutcome(() -> empty().publish(LEAD, "r1", "plan", "title", content, NOW), expected);
    TeamState state = empty();
    publish(state, "r1", "c");
    assertOutcome(
        () -> state.update(LEAD, 1, 1L, new EntryChange(null, null, content, null), NOW), expected);
  }

  @Test
  void publishingStampsTheAuthorTimeAndSourceAndCountsTheRevisions() {
    TeamState state = empty();

    Published published =
        state.publish(CRITIC, "r1", "question", "Which sources?", "List them", NOW);

    Entry entry = published.entry();
    assertThat(published.created()).isTrue();
    assertThat(entry.id()).isEqualTo(1);
    assertThat(entry.revision()).isEqualTo(1);
    assertThat(entry.status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(entry.createdBy()).isEqualTo("critic");
    assertThat(entry.updatedBy()).isEqualTo("critic");
    assertThat(entry.sourceConversationId()).isEqualTo("conversation-critic");
    assertThat(entry.sourceJobId()).isEqualTo("11111111-1111-1111-1111-111111111111");
    assertThat(entry.view().createdAt()).isEqualTo("2026-11-30T08:00:00.987Z");
    assertThat(state.stateRevision()).isEqualTo(1);
    assertThat(state.teamRevision()).isEqualTo(8);
    List<TeamEvent> events = state.takeEvents();
    assertThat(events).hasSize(1);
    TeamStatePublished event = (TeamStatePublished) events.get(0);
    assertThat(event.entry()).isEqualTo(entry.view());
    assertThat(event.stateRevision()).isEqualTo(1);
    assertThat(event.teamRevision()).isEqualTo(8);
    assertThat(publish(state, "r2", "more").id()).isEqualTo(2);
  }

  @Test
  void aRetryWithTheSameRequestIdReturnsTheExistingEntryWithoutANewRevision() {
    TeamState state = empty();
    Entry first = publish(state, "r1", "content");
    state.takeEvents();

    Published retry = state.publish(LEAD, "r1", "finding", "Title", "content", NOW.plusSeconds(5));

    assertThat(retry.created()).isFalse();
    assertThat(retry.entry()).isEqualTo(first);
    assertThat(state.entries()).hasSize(1);
    assertThat(state.stateRevision()).isEqualTo(1);
    assertThat(state.takeEvents()).isEmpty();
  }

  @Test
  void theSameRequestIdWithDifferentContentIsRejected() {
    TeamState state = empty();
    publish(state, "r1", "content");

    assertOutcome(() -> publish(state, "r1", "other content"), "request-id-reused");
    assertOutcome(
        () -> state.publish(LEAD, "r1", "plan", "Title", "content", NOW), "request-id-reused");
    assertThat(state.entries()).hasSize(1);
  }

  @Test
  void requestIdsAreDeduplicatedPerMember() {
    TeamState state = empty();
    publish(state, "r1", "content");

    Published other = state.publish(CRITIC, "r1", "finding", "Title", "content", NOW);

    assertThat(other.created()).isTrue();
    assertThat(state.entries()).hasSize(2);
  }

  @Test
  void holdsAtMostTwentyEntriesArchivedOnesIncludedAndARetryStillAnswers() {
    TeamState state = empty();
    for (int i = 1; i <= 20; i++) {
      publish(state, "r" + i, "c");
    }
    state.update(LEAD, 1, 1L, new EntryChange(null, null, null, "archived"), NOW);

    assertThatThrownBy(() -> publish(state, "r21", "c"))
        .isInstanceOf(LimitExceededException.class)
        .extracting(e -> ((LimitExceededException) e).limit())
        .isEqualTo("state.max-entries");
    assertThat(state.entries()).hasSize(20);
    assertThat(state.publish(LEAD, "r20", "finding", "Title", "c", NOW).created()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ascii", "cjk", "emoji"})
  void theJsonOfAllEntriesMayReachExactly16000BytesButNotOneMore(String alphabet) {
    TeamState state = empty();
    int need;
    while (true) {
      int room = LIMITS.maxTotalJsonBytes() - state.totalJsonBytes();
      TeamState probe = copy(state);
      publish(probe, "probe", "");
      int emptyEntry = probe.totalJsonBytes() - state.totalJsonBytes();
      need = room - emptyEntry;
      if (need <= 1000) {
        break;
      }
      publish(state, "fill-" + state.entries().size(), "x".repeat(1000));
    }

    TeamState exact = copy(state);
    publish(exact, "last", contentOfBytes(alphabet, need));
    assertThat(exact.totalJsonBytes()).isEqualTo(16_000);

    int tooMuch = need + 1;
    TeamState over = copy(state);
    long revision = over.stateRevision();
    assertThatThrownBy(() -> publish(over, "last", contentOfBytes(alphabet, tooMuch)))
        .isInstanceOf(LimitExceededException.class)
        .satisfies(
            e -> {
              LimitExceededException limit = (LimitExceededException) e;
              assertThat(limit.limit()).isEqualTo("state.max-total-json-bytes");
              assertThat(limit.actual()).isEqualTo(16_001);
            });
    assertThat(over.entries()).hasSameSizeAs(state.entries());
    assertThat(over.stateRevision()).isEqualTo(revision);
    assertThat(over.totalJsonBytes()).isEqualTo(state.totalJsonBytes());

    // At the limit, an update that grows the state is rejected whole; one that does not, passes.
    long last = exact.entries().size();
    Entry full = exact.find(last).orElseThrow();
    assertOutcome(
        () ->
            exact.update(
                LEAD, last, 1L, new EntryChange(null, null, full.content() + "a", null), NOW),
        "state.max-total-json-bytes");
    assertThat(exact.find(last)).contains(full);
    assertThat(
            exact.update(LEAD, last, 1L, new EntryChange(null, "Other", null, null), NOW).updated())
        .isTrue();
    assertThat(exact.totalJsonBytes()).isEqualTo(16_000);
  }

  /** Content of exactly {@code bytes} UTF-8 bytes in the alphabet, padded with ASCII. */
  private static String contentOfBytes(String alphabet, int bytes) {
    return switch (alphabet) {
      case "cjk" -> TextBoundaries.CJK.repeat(bytes / 3) + "a".repeat(bytes % 3);
      case "emoji" -> TextBoundaries.EMOJI.repeat(bytes / 4) + "a".repeat(bytes % 4);
      default -> "a".repeat(bytes);
    };
  }

  @Test
  void anUpdateAtTheExpectedRevisionMakesANewRevisionStampedWithItsAuthor() {
    TeamState state = empty();
    publish(state, "r1", "draft");
    state.takeEvents();

    Updated updated =
        state.update(
            CRITIC, 1, 1L, new EntryChange("finding", null, "final", null), NOW.plusSeconds(60));

    assertThat(updated.updated()).isTrue();
    assertThat(updated.conflict()).isFalse();
    Entry entry = updated.entry();
    assertThat(entry.revision()).isEqualTo(2);
    assertThat(entry.content()).isEqualTo("final");
    assertThat(entry.title()).isEqualTo("Title");
    assertThat(entry.createdBy()).isEqualTo("lead");
    assertThat(entry.updatedBy()).isEqualTo("critic");
    assertThat(entry.sourceConversationId()).isEqualTo("conversation-critic");
    assertThat(entry.sourceJobId()).isEqualTo(CRITIC.jobId());
    assertThat(entry.updatedAt()).isAfter(entry.createdAt());
    assertThat(state.stateRevision()).isEqualTo(2);
    List<TeamEvent> events = state.takeEvents();
    assertThat(events).singleElement().isInstanceOf(TeamStateUpdated.class);
    assertThat(((TeamStateUpdated) events.get(0)).entry().revision()).isEqualTo(2);
  }

  @Test
  void aStaleRevisionIsAConflictThatReturnsTheCurrentEntryAndChangesNothing() {
    TeamState state = empty();
    publish(state, "r1", "draft");
    state.update(LEAD, 1, 1L, new EntryChange(null, null, "lead's version", null), NOW);
    state.takeEvents();

    Updated conflict =
        state.update(CRITIC, 1, 1L, new EntryChange(null, null, "critic's version", null), NOW);

    assertThat(conflict.updated()).isFalse();
    assertThat(conflict.conflict()).isTrue();
    assertThat(conflict.entry().content()).isEqualTo("lead's version");
    assertThat(conflict.entry().revision()).isEqualTo(2);
    assertThat(state.stateRevision()).isEqualTo(2);
    assertThat(state.takeEvents()).isEmpty();
  }

  @Test
  void theIdenticalRetryOfTheLatestUpdateSucceedsWithoutANewRevision() {
    TeamState state = empty();
    publish(state, "r1", "draft");
    EntryChange change = new EntryChange(null, "New title", "final", null);
    state.update(LEAD, 1, 1L, change, NOW);
    state.takeEvents();

    Updated retry = state.update(LEAD, 1, 1L, change, NOW.plusSeconds(1));

    assertThat(retry.updated()).isTrue();
    assertThat(retry.conflict()).isFalse();
    assertThat(retry.changed()).isFalse();
    assertThat(retry.entry().revision()).isEqualTo(2);
    assertThat(state.stateRevision()).isEqualTo(2);
    assertThat(state.takeEvents()).isEmpty();
  }

  @Test
  void anOlderRetryAfterAnotherEditConflicts() {
    TeamState state = empty();
    publish(state, "r1", "draft");
    EntryChange mine = new EntryChange(null, null, "mine", null);
    state.update(LEAD, 1, 1L, mine, NOW);
    state.update(CRITIC, 1, 2L, new EntryChange(null, null, "theirs", null), NOW);

    Updated retry = state.update(LEAD, 1, 1L, mine, NOW);

    assertThat(retry.conflict()).isTrue();
    assertThat(retry.entry().content()).isEqualTo("theirs");
  }

  @Test
  void theSameChangeFromAnotherMemberAtAStaleRevisionConflicts() {
    TeamState state = empty();
    publish(state, "r1", "draft");
    EntryChange change = new EntryChange(null, null, "same words", null);
    state.update(LEAD, 1, 1L, change, NOW);

    assertThat(state.update(CRITIC, 1, 1L, change, NOW).conflict()).isTrue();
  }

  @Test
  void kindAndCreatorAreImmutable() {
    TeamState state = empty();
    publish(state, "r1", "draft");

    assertOutcome(
        () -> state.update(LEAD, 1, 1L, new EntryChange("plan", null, "x", null), NOW),
        "kind-immutable");
    Entry updated =
        state.update(CRITIC, 1, 1L, new EntryChange("finding", null, "x", null), NOW).entry();
    assertThat(updated.kind()).isEqualTo(EntryKind.FINDING);
    assertThat(updated.createdBy()).isEqualTo("lead");
  }

  @Test
  void rejectsMalformedUpdates() {
    TeamState state = empty();
    publish(state, "r1", "draft");

    assertOutcome(
        () -> state.update(LEAD, 1, null, new EntryChange(null, "t", null, null), NOW),
        "missing-expected-revision");
    assertOutcome(
        () -> state.update(LEAD, 1, 1L, new EntryChange(null, null, null, null), NOW),
        "empty-update");
    assertOutcome(
        () -> state.update(LEAD, 1, 1L, new EntryChange(null, null, null, "deleted"), NOW),
        "invalid-entry-status");
    assertOutcome(
        () -> state.update(LEAD, 9, 1L, new EntryChange(null, "t", null, null), NOW),
        "state-entry-not-found");
  }

  @Test
  void rejectsMalformedPublishes() {
    assertOutcome(
        () -> empty().publish(LEAD, "r1", "opinion", "t", "c", NOW), "invalid-entry-kind");
    assertOutcome(() -> empty().publish(LEAD, " ", "plan", "t", "c", NOW), "blank-field");
    assertOutcome(() -> empty().publish(LEAD, "r1", "plan", "t", null, NOW), "missing-field");
    assertOutcome(
        () -> empty().publish(LEAD, "r".repeat(129), "plan", "t", "c", NOW),
        "state.request-id.max-chars");
    assertOutcome(
        () -> empty().publish(LEAD, "r1", "plan", "t", "nul\u0000", NOW), "nul-character");
  }

  @Test
  void archivingKeepsTheEntryQueryableAndItsSlot() {
    TeamState state = empty();
    publish(state, "r1", "old plan");
    publish(state, "r2", "new plan");

    Updated archived =
        state.update(LEAD, 1, 1L, new EntryChange(null, null, null, "archived"), NOW);

    assertThat(archived.entry().status()).isEqualTo(EntryStatus.ARCHIVED);
    assertThat(state.read(StateQuery.active())).extracting(Entry::id).containsExactly(2L);
    assertThat(state.read(new StateQuery(null, null, null, true)))
        .extracting(Entry::id)
        .containsExactly(1L, 2L);
    assertThat(state.entries()).hasSize(2);
    assertThat(publish(state, "r3", "x").id()).isEqualTo(3);
  }

  @Test
  void readsFilterByEntryIdKindAndALiteralCaseInsensitiveQuery() {
    TeamState state = empty();
    state.publish(LEAD, "r1", "objective", "Ship the Report", "by Friday", NOW);
    state.publish(LEAD, "r2", "question", "Straße names?", "ÄRGER with umlauts", NOW);
    state.publish(LEAD, "r3", "finding", "Regex chars", "costs rose 5.*%", NOW);

    assertThat(ids(state, new StateQuery(2L, null, null, false))).containsExactly(2L);
    assertThat(ids(state, new StateQuery(null, EntryKind.FINDING, null, false)))
        .containsExactly(3L);
    assertThat(ids(state, new StateQuery(null, null, "REPORT", false))).containsExactly(1L);
    assertThat(ids(state, new StateQuery(null, null, "ärger", false))).containsExactly(2L);
    assertThat(ids(state, new StateQuery(null, null, "5.*%", false))).containsExactly(3L);
    assertThat(ids(state, new StateQuery(null, null, ".*", false))).containsExactly(3L);
    assertThat(ids(state, new StateQuery(null, null, "r.se", false))).isEmpty();
    assertThat(ids(state, new StateQuery(null, EntryKind.PLAN, null, false))).isEmpty();
  }

  private static List<Long> ids(TeamState state, StateQuery query) {
    return state.read(query).stream().map(Entry::id).toList();
  }
}
