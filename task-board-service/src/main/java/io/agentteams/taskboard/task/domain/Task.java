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
 */
public final class Task {

  private final TaskId id;
  private final String title;
  private final String description;
  private final TaskState state;
  private final boolean held;
  private final TaskStatus status;
  private final @Nullable BlockedReason blockedReason;
  private final @Nullable String owner;
  private final List<TaskId> dependencies;
  private final List<WriteScope> writeScopes;
  private final @Nullable String phase;
  private final int percent;
  private final @Nullable Instant claimedAt;
  private final @Nullable Instant heartbeatAt;
  private final int heartbeatCount;
  private final @Nullable String result;
  private final @Nullable String error;
  private final @Nullable UUID planId;
  private final @Nullable String planKey;
  private final String createdBy;
  private final @Nullable Instant deletedAt;
  private final @Nullable String deletedBy;
  private final long revision;
  private final Instant createdAt;
  private final Instant updatedAt;

  private Task(Builder b) {
    this.id = Objects.requireNonNull(b.id, "id");
    this.title = Objects.requireNonNull(b.title, "title");
    this.description = Objects.requireNonNull(b.description, "description");
    this.state = Objects.requireNonNull(b.state, "state");
    this.held = b.held;
    this.status = Objects.requireNonNull(b.status, "status");
    this.blockedReason = b.blockedReason;
    this.owner = b.owner;
    this.dependencies = b.dependencies.stream().distinct().sorted().toList();
    this.writeScopes = List.copyOf(b.writeScopes);
    this.phase = b.phase;
    this.percent = b.percent;
    this.claimedAt = b.claimedAt;
    this.heartbeatAt = b.heartbeatAt;
    this.heartbeatCount = b.heartbeatCount;
    this.result = b.result;
    this.error = b.error;
    this.planId = b.planId;
    this.planKey = b.planKey;
    this.createdBy = Objects.requireNonNull(b.createdBy, "created by");
    this.deletedAt = b.deletedAt;
    this.deletedBy = b.deletedBy;
    this.revision = b.revision;
    this.createdAt = Objects.requireNonNull(b.createdAt, "created at");
    this.updatedAt = Objects.requireNonNull(b.updatedAt, "updated at");
    if ((status == TaskStatus.BLOCKED) != (blockedReason != null)) {
      throw new IllegalArgumentException("a blocked reason goes with blocked, and only with it");
    }
    if (state == TaskState.IN_PROGRESS && (owner == null || heartbeatAt == null)) {
      throw new IllegalArgumentException("a task in progress has an owner and a heartbeat");
    }
    if (percent < 0 || percent > 100) {
      throw new IllegalArgumentException("percent must be 0..100");
    }
  }

  /** A builder for a new task or for one read back from storage. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from this task. */
  public Builder toBuilder() {
    return new Builder(this);
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
    if (owner != null && !owner.equals(member.name())) {
      throw TaskProblem.ownedByAnother(this);
    }
    requireRevision(expectedRevision);
    if (status != TaskStatus.READY) {
      throw TaskProblem.notReady(this);
    }
    return next(now)
        .state(TaskState.IN_PROGRESS)
        .status(TaskStatus.IN_PROGRESS)
        .blockedReason(null)
        .owner(member.name())
        .claimedAt(now)
        .heartbeatAt(now)
        .heartbeatCount(0)
        .phase(null)
        .percent(0)
        .build();
  }

  /**
   * The claimant says it is still working, optionally with progress; only the member that holds the
   * claim may, so a claimant whose claim expired is refused.
   */
  public Task heartbeat(
      Actor actor, long expectedRevision, @Nullable Progress progress, Instant now) {
    Actor.Member member = requireMember(actor, "heartbeat tasks");
    requireLive();
    if (state != TaskState.IN_PROGRESS || !member.name().equals(owner)) {
      throw TaskProblem.notClaimant(this, member.name(), "heartbeat");
    }
    requireRevision(expectedRevision);
    Builder next = next(now).heartbeatAt(now).heartbeatCount(heartbeatCount + 1);
    if (progress != null) {
      next.phase(progress.phase()).percent(progress.percent());
    }
    return next.build();
  }

  /** Whether the claim's heartbeats stopped for longer than {@code timeout} at {@code now}. */
  public boolean claimExpired(Instant now, Duration timeout) {
    return state == TaskState.IN_PROGRESS
        && heartbeatAt != null
        && heartbeatAt.plus(timeout).isBefore(now);
  }

  /** Whether the progress differs from what the task reports now. */
  public boolean progressDiffers(Task other) {
    return !Objects.equals(phase, other.phase) || percent != other.percent;
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
    if (!member.lead() && !member.name().equals(owner)) {
      throw TaskProblem.notOwner(this, member.name(), action);
    }
    return member;
  }

  void requireLive() {
    if (deletedAt != null) {
      throw TaskProblem.deleted(this);
    }
  }

  void requireRevision(long expected) {
    if (expected != revision) {
      throw TaskProblem.staleRevision(this, expected);
    }
  }

  /** The builder for the next revision, stamped at {@code now}. */
  Builder next(Instant now) {
    return toBuilder().revision(revision + 1).updatedAt(now);
  }

  /** This task with a freshly derived status, at the same revision. */
  Task withDerived(Derived derived) {
    return toBuilder().status(derived.status()).blockedReason(derived.reason()).build();
  }

  /** The derivation's view of this task. */
  StatusDerivation.Node node() {
    return new StatusDerivation.Node(state, held, dependencies);
  }

  public Derived derived() {
    return new Derived(status, blockedReason);
  }

  // ---- accessors ----

  public TaskId id() {
    return id;
  }

  public String title() {
    return title;
  }

  public String description() {
    return description;
  }

  public TaskState state() {
    return state;
  }

  public boolean held() {
    return held;
  }

  public TaskStatus status() {
    return status;
  }

  public @Nullable BlockedReason blockedReason() {
    return blockedReason;
  }

  public @Nullable String owner() {
    return owner;
  }

  public List<TaskId> dependencies() {
    return dependencies;
  }

  public List<WriteScope> writeScopes() {
    return writeScopes;
  }

  public @Nullable String phase() {
    return phase;
  }

  public int percent() {
    return percent;
  }

  public @Nullable Instant claimedAt() {
    return claimedAt;
  }

  public @Nullable Instant heartbeatAt() {
    return heartbeatAt;
  }

  public int heartbeatCount() {
    return heartbeatCount;
  }

  public @Nullable String result() {
    return result;
  }

  public @Nullable String error() {
    return error;
  }

  public @Nullable UUID planId() {
    return planId;
  }

  public @Nullable String planKey() {
    return planKey;
  }

  public String createdBy() {
    return createdBy;
  }

  public @Nullable Instant deletedAt() {
    return deletedAt;
  }

  public @Nullable String deletedBy() {
    return deletedBy;
  }

  public boolean deleted() {
    return deletedAt != null;
  }

  public long revision() {
    return revision;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  @Override
  public String toString() {
    return "Task[" + id + " " + status.wire() + " rev " + revision + "]";
  }

  /** What a claimant reports about its work. */
  public record Progress(@Nullable String phase, int percent) {
    public Progress {
      if (percent < 0 || percent > 100) {
        throw BoardProblems.invalidPercent(percent);
      }
    }
  }

  /** Assembles a task; the constructor checks its invariants. */
  public static final class Builder {
    private @Nullable TaskId id;
    private @Nullable String title;
    private String description = "";
    private TaskState state = TaskState.OPEN;
    private boolean held;
    private TaskStatus status = TaskStatus.PENDING;
    private @Nullable BlockedReason blockedReason;
    private @Nullable String owner;
    private List<TaskId> dependencies = List.of();
    private List<WriteScope> writeScopes = List.of();
    private @Nullable String phase;
    private int percent;
    private @Nullable Instant claimedAt;
    private @Nullable Instant heartbeatAt;
    private int heartbeatCount;
    private @Nullable String result;
    private @Nullable String error;
    private @Nullable UUID planId;
    private @Nullable String planKey;
    private @Nullable String createdBy;
    private @Nullable Instant deletedAt;
    private @Nullable String deletedBy;
    private long revision = 1;
    private @Nullable Instant createdAt;
    private @Nullable Instant updatedAt;

    private Builder() {}

    private Builder(Task t) {
      id = t.id;
      title = t.title;
      description = t.description;
      state = t.state;
      held = t.held;
      status = t.status;
      blockedReason = t.blockedReason;
      owner = t.owner;
      dependencies = t.dependencies;
      writeScopes = t.writeScopes;
      phase = t.phase;
      percent = t.percent;
      claimedAt = t.claimedAt;
      heartbeatAt = t.heartbeatAt;
      heartbeatCount = t.heartbeatCount;
      result = t.result;
      error = t.error;
      planId = t.planId;
      planKey = t.planKey;
      createdBy = t.createdBy;
      deletedAt = t.deletedAt;
      deletedBy = t.deletedBy;
      revision = t.revision;
      createdAt = t.createdAt;
      updatedAt = t.updatedAt;
    }

    public Builder id(TaskId value) {
      id = value;
      return this;
    }

    public Builder title(String value) {
      title = value;
      return this;
    }

    public Builder description(String value) {
      description = value;
      return this;
    }

    public Builder state(TaskState value) {
      state = value;
      return this;
    }

    public Builder held(boolean value) {
      held = value;
      return this;
    }

    public Builder status(TaskStatus value) {
      status = value;
      return this;
    }

    public Builder blockedReason(@Nullable BlockedReason value) {
      blockedReason = value;
      return this;
    }

    public Builder owner(@Nullable String value) {
      owner = value;
      return this;
    }

    public Builder dependencies(List<TaskId> value) {
      dependencies = List.copyOf(value);
      return this;
    }

    public Builder writeScopes(List<WriteScope> value) {
      writeScopes = List.copyOf(value);
      return this;
    }

    public Builder phase(@Nullable String value) {
      phase = value;
      return this;
    }

    public Builder percent(int value) {
      percent = value;
      return this;
    }

    public Builder claimedAt(@Nullable Instant value) {
      claimedAt = value;
      return this;
    }

    public Builder heartbeatAt(@Nullable Instant value) {
      heartbeatAt = value;
      return this;
    }

    public Builder heartbeatCount(int value) {
      heartbeatCount = value;
      return this;
    }

    public Builder result(@Nullable String value) {
      result = value;
      return this;
    }

    public Builder error(@Nullable String value) {
      error = value;
      return this;
    }

    public Builder planId(@Nullable UUID value) {
      planId = value;
      return this;
    }

    public Builder planKey(@Nullable String value) {
      planKey = value;
      return this;
    }

    public Builder createdBy(String value) {
      createdBy = value;
      return this;
    }

    public Builder deletedAt(@Nullable Instant value) {
      deletedAt = value;
      return this;
    }

    public Builder deletedBy(@Nullable String value) {
      deletedBy = value;
      return this;
    }

    public Builder revision(long value) {
      revision = value;
      return this;
    }

    public Builder createdAt(Instant value) {
      createdAt = value;
      return this;
    }

    public Builder updatedAt(Instant value) {
      updatedAt = value;
      return this;
    }

    public Task build() {
      return new Task(this);
    }
  }
}
