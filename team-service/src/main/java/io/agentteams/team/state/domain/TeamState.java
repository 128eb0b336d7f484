package io.agentteams.team.state.domain;

import io.agentteams.contracts.team.StateEntry;
import io.agentteams.contracts.team.TeamEvent;
import io.agentteams.contracts.team.TeamStatePublished;
import io.agentteams.contracts.team.TeamStateUpdated;
import io.agentteams.team.text.domain.StoredText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team's public state: the entries its members share, with the team-state revision. Every write
 * is checked whole against the limits before anything changes, and records its event with the next
 * team revision.
 */
public final class TeamState {

  private final UUID teamId;
  private final StateLimits limits;
  private final List<Entry> entries;
  private long teamRevision;
  private long stateRevision;
  private final List<TeamEvent> recorded = new ArrayList<>();

  public TeamState(
      UUID teamId, long teamRevision, long stateRevision, List<Entry> entries, StateLimits limits) {
    this.teamId = Objects.requireNonNull(teamId);
    this.teamRevision = teamRevision;
    this.stateRevision = stateRevision;
    this.entries = new ArrayList<>(entries);
    this.entries.sort(Comparator.comparingLong(Entry::id));
    this.limits = Objects.requireNonNull(limits);
  }

  /**
   * Publishes a new entry. A retry with the same request id from the same member returns the entry
   * it created; the same request id with different content is rejected.
   *
   * @throws io.agentteams.platform.problem.DomainFailure naming the first rule the request breaks;
   *     nothing changes then
   */
  public Published publish(
      Author author,
      @Nullable String requestId,
      @Nullable String kind,
      @Nullable String title,
      @Nullable String content,
      Instant now) {
    String checkedRequestId = StoredText.checkNotBlank(limits.requestId(), requestId);
    EntryKind checkedKind = EntryKind.fromWire(kind);
    String checkedTitle = StoredText.checkNotBlank(limits.title(), title);
    String checkedContent = StoredText.check(limits.content(), content);
    String fingerprint = fingerprint(List.of(checkedKind.wire(), checkedTitle, checkedContent));
    Optional<Entry> earlier =
        entries.stream()
            .filter(
                e ->
                    e.createdBy().equals(author.member()) && e.requestId().equals(checkedRequestId))
            .findFirst();
    if (earlier.isPresent()) {
      if (earlier.get().publishFingerprint().equals(fingerprint)) {
        return new Published(earlier.get(), false);
      }
      throw StateProblems.requestIdReused(checkedRequestId, earlier.get().id());
    }
    if (entries.size() >= limits.maxEntries()) {
      throw StateProblems.tooManyEntries(limits.maxEntries(), entries.size() + 1L);
    }
    Instant at = now.truncatedTo(ChronoUnit.MILLIS);
    long id = entries.stream().mapToLong(Entry::id).max().orElse(0) + 1;
    Entry entry =
        new Entry(
            id,
            checkedKind,
            checkedTitle,
            checkedContent,
            EntryStatus.ACTIVE,
            author.member(),
            at,
            author.member(),
            at,
            author.conversationId(),
            author.jobId(),
            1,
            checkedRequestId,
            fingerprint,
            null);
    List<Entry> next = new ArrayList<>(entries);
    next.add(entry);
    requireWithinTotal(next);
    entries.add(entry);
    stateRevision++;
    teamRevision++;
    recorded.add(
        new TeamStatePublished(teamId.toString(), entry.view(), stateRevision, teamRevision));
    return new Published(entry, true);
  }

  /**
   * Updates an entry if it is still at the expected revision. A stale revision is a conflict that
   * returns the current entry; the identical retry of the latest successful update (same member,
   * same expected revision, same change) succeeds again without a new revision.
   *
   * @throws io.agentteams.platform.problem.DomainFailure when the entry does not exist or the
   *     change breaks a rule
   */
  public Updated update(
      Author author,
      long entryId,
      @Nullable Long expectedRevision,
      EntryChange change,
      Instant now) {
    Entry current = find(entryId).orElseThrow(() -> StateProblems.entryNotFound(entryId));
    if (expectedRevision == null) {
      throw StateProblems.missingExpectedRevision();
    }
    if (change.kind() != null && EntryKind.fromWire(change.kind()) != current.kind()) {
      throw StateProblems.kindImmutable(entryId, current.kind());
    }
    String title =
        change.title() == null ? null : StoredText.checkNotBlank(limits.title(), change.title());
    String content =
        change.content() == null ? null : StoredText.check(limits.content(), change.content());
    EntryStatus status = change.status() == null ? null : EntryStatus.fromWire(change.status());
    if (title == null && content == null && status == null) {
      throw StateProblems.emptyUpdate();
    }
    String fingerprint =
        fingerprint(
            List.of(
                author.member(),
                Long.toString(expectedRevision),
                present(title),
                present(content),
                status == null ? "-" : "+" + status.wire()));
    if (expectedRevision != current.revision()) {
      boolean identicalRetry = fingerprint.equals(current.lastUpdateFingerprint());
      return new Updated(current, identicalRetry, !identicalRetry, false);
    }
    Instant at = now.truncatedTo(ChronoUnit.MILLIS);
    Entry updated =
        new Entry(
            current.id(),
            current.kind(),
            title == null ? current.title() : title,
            content == null ? current.content() : content,
            status == null ? current.status() : status,
            current.createdBy(),
            current.createdAt(),
            author.member(),
            at,
            author.conversationId(),
            author.jobId(),
            current.revision() + 1,
            current.requestId(),
            current.publishFingerprint(),
            fingerprint);
    List<Entry> next = new ArrayList<>(entries);
    next.replaceAll(e -> e.id() == entryId ? updated : e);
    requireWithinTotal(next);
    entries.replaceAll(e -> e.id() == entryId ? updated : e);
    stateRevision++;
    teamRevision++;
    recorded.add(
        new TeamStateUpdated(teamId.toString(), updated.view(), stateRevision, teamRevision));
    return new Updated(updated, true, false, true);
  }

  /** The entries the query selects, in id order. */
  public List<Entry> read(StateQuery query) {
    return entries.stream().filter(query::matches).toList();
  }

  /** The entry with that id, archived or not. */
  public Optional<Entry> find(long entryId) {
    return entries.stream().filter(e -> e.id() == entryId).findFirst();
  }

  /** UTF-8 bytes of the JSON array of every entry, archived ones included. */
  public int totalJsonBytes() {
    return EntryJson.arrayBytes(entries.stream().map(Entry::view).toList());
  }

  /** The events recorded since the state was loaded, in order, and forgets them. */
  public List<TeamEvent> takeEvents() {
    List<TeamEvent> events = List.copyOf(recorded);
    recorded.clear();
    return events;
  }

  public UUID teamId() {
    return teamId;
  }

  public long teamRevision() {
    return teamRevision;
  }

  public long stateRevision() {
    return stateRevision;
  }

  public List<Entry> entries() {
    return List.copyOf(entries);
  }

  private void requireWithinTotal(List<Entry> next) {
    List<StateEntry> views = next.stream().map(Entry::view).toList();
    int bytes = EntryJson.arrayBytes(views);
    if (bytes > limits.maxTotalJsonBytes()) {
      throw StateProblems.tooManyBytes(limits.maxTotalJsonBytes(), bytes);
    }
  }

  private static String present(@Nullable String value) {
    return value == null ? "-" : "+" + value;
  }

  /** A digest of the parts, each length-prefixed so that no two lists share one. */
  private static String fingerprint(List<String> parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
        digest.update((byte) ':');
        digest.update(bytes);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
