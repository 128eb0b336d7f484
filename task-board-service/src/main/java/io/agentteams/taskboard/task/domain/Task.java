package io.agentteams.taskboard.task.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One task of a team's board. Immutable: every transition returns the task at its next revision,
 * after checking who acts, the expected revision and the state, in that order. Rules that need the
 * rest of the board (dependencies, derived status of others) live in {@link Board}.
 *
 * @param id the task's number on its board
 * @param definition what the task is
 * @param standing where its work stands
 * @param origin who created it, when, and from which plan
 * @param deletion who deleted it and when, for a tombstone
 * @param revision raised by every change of the task
 * @param updatedAt when it last changed
 */
public record Task(
    TaskId id,
    Definition definition,
    Standing standing,
    Origin origin,
    @Nullable Deletion deletion,
    long revision,
    Instant updatedAt) {

  public Task {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(standing, "standing");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(updatedAt, "updated at");
  }

  /** A new open task at revision 1, to be derived by its board. */
  public static Task created(
      TaskId id, Definition definition, boolean held, @Nullable String owner, Origin origin) {
    Standing open =
        new Standing(
            TaskState.OPEN,
            held,
            Derived.of(TaskStatus.PENDING),
            Claim.reservedFor(owner),
            Outcome.NONE);
    return new Task(id, definition, open, origin, null, 1, origin.createdAt());
  }

  // ---- transitions that need only the task itself ----

  /**
   * A member claims the task: it must be ready and unowned (or reserved for that member).
   *
   * @throws TaskProblem naming the first rule the claim breaks
   */
  public Task claim(Actor actor, long expectedRevision, Instant now) {
    Actor.Member member = requireMember(actor, "claim tasks");
    requireLive();
    if (owner() != null && !owner().equals(member.name())) {
      throw TaskProblem.ownedByAnother(this);
    }
    requireRevision(expectedRevision);
    if (status() != TaskStatus.READY) {
      throw TaskProblem.notReady(this);
    }
    return next(now).with(standing.claimedBy(member.name(), now));
  }

  /**
   * The claimant says it is still working, optionally with progress; only the member that holds the
   * claim may, so a claimant whose claim expired is refused.
   */
  public Task heartbeat(
      Actor actor, long expectedRevision, @Nullable Progress progress, Instant now) {
    Actor.Member member = requireMember(actor, "heartbeat tasks");
    requireLive();
    if (state() != TaskState.IN_PROGRESS || !member.name().equals(owner())) {
      throw TaskProblem.notClaimant(this, member.name(), "heartbeat");
    }
    requireRevision(expectedRevision);
    return next(now).with(standing.withClaim(claim().beat(now, progress)));
  }

  /** Whether the claim's heartbeats stopped for longer than {@code timeout} at {@code now}. */
  public boolean claimExpired(Instant now, Duration timeout) {
    Instant heartbeatAt = claim().heartbeatAt();
    return state() == TaskState.IN_PROGRESS
        && heartbeatAt != null
        && heartbeatAt.plus(timeout).isBefore(now);
  }

  /** Whether the progress differs from what the task reports now. */
  public boolean progressDiffers(Task other) {
    return !Objects.equals(claim().phase(), other.claim().phase())
        || claim().percent() != other.claim().percent();
  }

  // ---- checks shared with the board ----

  Actor.Member requireMember(Actor actor, String action) {
    if (actor instanceof Actor.Member member) {
      return member;
    }
    throw BoardProblems.membersOnly(action);
  }

  /** The owner or the lead may edit and transition a task. */
  Actor.Member requireOwnerOrLead(Actor actor, String action) {
    Actor.Member member = requireMember(actor, action + " tasks");
    if (!member.lead() && !member.name().equals(owner())) {
      throw TaskProblem.notOwner(this, member.name(), action);
    }
    return member;
  }

  void requireLive() {
    if (deletion != null) {
      throw TaskProblem.deleted(this);
    }
  }

  void requireRevision(long expected) {
    if (expected != revision) {
      throw TaskProblem.staleRevision(this, expected);
    }
  }

  // ---- the next revision ----

  /** This task at its next revision, stamped at {@code now}. */
  Task next(Instant now) {
    return new Task(id, definition, standing, origin, deletion, revision + 1, now);
  }

  /** This task with another definition, at the same revision. */
  Task with(Definition changed) {
    return new Task(id, changed, standing, origin, deletion, revision, updatedAt);
  }

  /** This task standing elsewhere, at the same revision. */
  Task with(Standing changed) {
    return new Task(id, definition, changed, origin, deletion, revision, updatedAt);
  }

  /** This task as a tombstone, at the same revision. */
  Task deletedBy(String member, Instant at) {
    Standing gone = standing.withDerived(Derived.of(TaskStatus.DELETED));
    return new Task(id, definition, gone, origin, new Deletion(at, member), revision, updatedAt);
  }

  /** The derivation's view of this task. */
  StatusDerivation.Node node() {
    return new StatusDerivation.Node(state(), held(), definition.dependencies());
  }

  // ---- reading ----

  public TaskState state() {
    return standing.state();
  }

  public boolean held() {
    return standing.held();
  }

  public Derived derived() {
    return standing.derived();
  }

  public TaskStatus status() {
    return standing.derived().status();
  }

  public @Nullable BlockedReason blockedReason() {
    return standing.derived().reason();
  }

  public Claim claim() {
    return standing.claim();
  }

  /** The member the task belongs to (or is reserved for), if any. */
  public @Nullable String owner() {
    return standing.claim().owner();
  }

  public Outcome outcome() {
    return standing.outcome();
  }

  public String title() {
    return definition.title();
  }

  public List<TaskId> dependencies() {
    return definition.dependencies();
  }

  public List<WriteScope> writeScopes() {
    return definition.writeScopes();
  }

  public boolean deleted() {
    return deletion != null;
  }

  @Override
  public String toString() {
    return "Task[" + id + " " + status().wire() + " rev " + revision + "]";
  }

  /**
   * What the task is: its title and description, the tasks it waits for, where it writes.
   *
   * @param dependencies kept distinct and in id order
   */
  public record Definition(
      String title, String description, List<TaskId> dependencies, List<WriteScope> writeScopes) {

    public Definition {
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(description, "description");
      dependencies = dependencies.stream().distinct().sorted().toList();
      writeScopes = List.copyOf(writeScopes);
    }
  }

  /**
   * Where a task's work stands.
   *
   * @param state where its work stands, as the transitions set it
   * @param held whether it waits for its plan's approval
   * @param derived its status as derived from the board, with the reason when blocked
   * @param claim who holds it and how the holder's work goes
   * @param outcome how it ended, once it did
   */
  public record Standing(
      TaskState state, boolean held, Derived derived, Claim claim, Outcome outcome) {

    public Standing {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(derived, "derived");
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(outcome, "outcome");
      if (state == TaskState.IN_PROGRESS
          && (claim.owner() == null || claim.heartbeatAt() == null)) {
        throw new IllegalArgumentException("a task in progress has an owner and a heartbeat");
      }
    }

    /** Claimed by {@code member} at {@code now}: in progress, with a fresh claim. */
    Standing claimedBy(String member, Instant now) {
      Derived inProgress = Derived.of(TaskStatus.IN_PROGRESS);
      return new Standing(
          TaskState.IN_PROGRESS, held, inProgress, Claim.startedBy(member, now), outcome);
    }

    /** Given up by its claimant, or its claim expired: open again, owned by nobody. */
    Standing reopened() {
      Derived pending = Derived.of(TaskStatus.PENDING);
      return new Standing(TaskState.OPEN, held, pending, claim.givenUp(), outcome);
    }

    /** Ended in {@code terminal} (completed, failed or cancelled), with its outcome. */
    Standing ended(TaskState terminal, Outcome how) {
      TaskStatus status =
          switch (terminal) {
            case COMPLETED -> TaskStatus.COMPLETED;
            case FAILED -> TaskStatus.FAILED;
            case CANCELLED -> TaskStatus.CANCELLED;
            default -> throw new IllegalArgumentException(terminal + " is not an end");
          };
      return new Standing(terminal, held, Derived.of(status), claim, how);
    }

    Standing withDerived(Derived changed) {
      return new Standing(state, held, changed, claim, outcome);
    }

    Standing withClaim(Claim changed) {
      return new Standing(state, held, derived, changed, outcome);
    }

    /** No longer waiting for its plan's approval. */
    Standing released() {
      return new Standing(state, false, derived, claim, outcome);
    }
  }

  /**
   * Who holds the task and how the holder's work goes.
   *
   * @param owner the member it belongs to (or is reserved for), if any
   * @param claimedAt when the current claim began
   * @param heartbeatAt the claimant's last heartbeat
   * @param heartbeatCount heartbeats within the current claim
   * @param phase what the claimant says it is doing
   * @param percent how far the claimant says it is, 0..100
   */
  public record Claim(
      @Nullable String owner,
      @Nullable Instant claimedAt,
      @Nullable Instant heartbeatAt,
      int heartbeatCount,
      @Nullable String phase,
      int percent) {

    public Claim {
      if (percent < 0 || percent > 100) {
        throw new IllegalArgumentException("percent must be 0..100");
      }
    }

    /** Reserved for a member that has not claimed it yet; nobody when {@code owner} is null. */
    public static Claim reservedFor(@Nullable String owner) {
      return new Claim(owner, null, null, 0, null, 0);
    }

    /** A fresh claim by {@code member} at {@code now}, with no progress yet. */
    static Claim startedBy(String member, Instant now) {
      return new Claim(member, now, now, 0, null, 0);
    }

    /** The claimant's heartbeat at {@code now}, with its progress when it reports some. */
    Claim beat(Instant now, @Nullable Progress progress) {
      String reportedPhase = progress == null ? phase : progress.phase();
      int reportedPercent = progress == null ? percent : progress.percent();
      return new Claim(owner, claimedAt, now, heartbeatCount + 1, reportedPhase, reportedPercent);
    }

    /** Given to {@code member}; a claim in progress restarts its time-out as theirs. */
    Claim handedTo(String member, boolean inProgress, Instant now) {
      return inProgress
          ? new Claim(member, now, now, 0, phase, percent)
          : new Claim(member, claimedAt, heartbeatAt, heartbeatCount, phase, percent);
    }

    /** Given up: nobody owns the task, and no claim is running. */
    Claim givenUp() {
      return new Claim(null, null, heartbeatAt, heartbeatCount, phase, percent);
    }
  }

  /**
   * How the task ended.
   *
   * @param result what a completed task produced, if its claimant said
   * @param error why a failed task failed
   */
  public record Outcome(@Nullable String result, @Nullable String error) {

    /** Not ended, or ended without a word. */
    public static final Outcome NONE = new Outcome(null, null);
  }

  /**
   * Where the task came from.
   *
   * @param planId the plan that created it, if any
   * @param planKey its key in that plan
   */
  public record Origin(
      String createdBy, Instant createdAt, @Nullable UUID planId, @Nullable String planKey) {

    public Origin {
      Objects.requireNonNull(createdBy, "created by");
      Objects.requireNonNull(createdAt, "created at");
    }
  }

  /** Who deleted the task, and when; a deleted task is a tombstone. */
  public record Deletion(Instant at, String by) {}

  /** What a claimant reports about its work. */
  public record Progress(@Nullable String phase, int percent) {
    public Progress {
      if (percent < 0 || percent > 100) {
        throw BoardProblems.invalidPercent(percent);
      }
    }
  }
}
