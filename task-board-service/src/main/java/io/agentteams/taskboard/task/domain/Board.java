package io.agentteams.taskboard.task.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team's board: its live tasks, the id counter and the settings, loaded and changed as one
 * aggregate inside one transaction. It keeps the graph acyclic, re-derives every status after a
 * change, and records what happened: the change itself first, then what it caused (a completed task
 * making dependents ready, a failed one blocking them).
 *
 * <p>Its size is one cohesive aggregate's: every change re-derives the statuses of the one task
 * graph it guards, so the changes stay with the graph.
 */
public final class Board {

  private final UUID teamId;
  private final String ownerId;
  private long nextTaskId;
  private @Nullable Duration claimTimeout;
  private final Duration defaultClaimTimeout;
  private long settingsRevision;
  private boolean settingsChanged;
  private final TreeMap<TaskId, Task> live = new TreeMap<>();
  private final Map<TaskId, Task> tombstones = new HashMap<>();
  private final Map<TaskId, Long> loadedRevisions = new HashMap<>();
  private final LinkedHashMap<TaskId, Task> touched = new LinkedHashMap<>();
  private final List<BoardEvent> events = new ArrayList<>();

  private Board(
      UUID teamId,
      String ownerId,
      long nextTaskId,
      @Nullable Duration claimTimeout,
      Duration defaultClaimTimeout,
      long settingsRevision) {
    this.teamId = teamId;
    this.ownerId = ownerId;
    this.nextTaskId = nextTaskId;
    this.claimTimeout = claimTimeout;
    this.defaultClaimTimeout = defaultClaimTimeout;
    this.settingsRevision = settingsRevision;
  }

  /**
   * A board as stored.
   *
   * @param nextTaskId the id the next task receives
   * @param claimTimeout the team's own claim time-out, or null for the default
   * @param tasks its live tasks, plus any tombstones the caller wants to address
   */
  public static Board of(
      UUID teamId,
      String ownerId,
      long nextTaskId,
      @Nullable Duration claimTimeout,
      Duration defaultClaimTimeout,
      long settingsRevision,
      Collection<Task> tasks) {
    Board board =
        new Board(teamId, ownerId, nextTaskId, claimTimeout, defaultClaimTimeout, settingsRevision);
    for (Task task : tasks) {
      if (task.id().value() >= nextTaskId) {
        throw new IllegalArgumentException("task " + task.id() + " is beyond the id counter");
      }
      (task.deleted() ? board.tombstones : board.live).put(task.id(), task);
      board.loadedRevisions.put(task.id(), task.revision());
    }
    return board;
  }

  /** A board that has no task yet. */
  public static Board empty(UUID teamId, String ownerId, Duration defaultClaimTimeout) {
    return new Board(teamId, ownerId, 1, null, defaultClaimTimeout, 1);
  }

  // ---- tasks ----

  /**
   * Adds a task; dependencies must name live tasks, so a new task never closes a cycle. Any member
   * may create tasks, and so may the team's owner (as {@code owner}, from the console); a member
   * other than the lead may name only itself as the task's owner, the team's owner any member.
   */
  public Task create(
      Actor actor, NewTask draft, TeamMembers members, TaskLimits limits, Instant now) {
    String title = limits.title().checkNotBlank(draft.title());
    String description =
        draft.description() == null ? "" : limits.description().check(draft.description());
    List<TaskId> dependencies = liveDependencies(draft.dependencies(), limits);
    List<WriteScope> scopes = scopes(draft.writeScopes(), limits);
    if (draft.owner() != null) {
      if (actor instanceof Actor.Member member) {
        checkAssignable(member, draft.owner(), members);
      } else if (!members.has(draft.owner())) {
        throw BoardProblems.unknownMember(draft.owner());
      }
    }
    requireRoom(1, limits);
    TaskId id = allocate();
    put(
        Task.created(
            id,
            new Task.Definition(title, description, dependencies, scopes),
            false,
            draft.owner(),
            new Task.Origin(actor.label(), now, null, null)));
    rederive(Set.of(id), new BoardEvent.Cause("created", id), now);
    Task created = live.get(id);
    events.add(new BoardEvent.Created(created, actor.label(), overlaps(created)));
    return created;
  }

  /** Edits title, description, dependencies or write scopes; the owner or the lead may. */
  public Task update(
      Actor actor,
      TaskId id,
      long expectedRevision,
      TaskEdit edit,
      TaskLimits limits,
      Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "edit");
    task.requireRevision(expectedRevision);
    List<String> changed = new ArrayList<>();
    Task.Definition before = task.definition();
    String title = before.title();
    String description = before.description();
    List<TaskId> dependencies = before.dependencies();
    List<WriteScope> scopes = before.writeScopes();
    if (edit.title() != null) {
      title = limits.title().checkNotBlank(edit.title());
      if (!title.equals(before.title())) {
        changed.add("title");
      }
    }
    if (edit.description() != null) {
      description = limits.description().check(edit.description());
      if (!description.equals(before.description())) {
        changed.add("description");
      }
    }
    if (edit.dependencies() != null) {
      dependencies = liveDependencies(edit.dependencies(), limits);
      if (!dependencies.equals(before.dependencies())) {
        if (task.state() != TaskState.OPEN) {
          throw TaskProblem.invalidTransition(
              task, "change the dependencies of", "it is " + task.status().wire());
        }
        requireAcyclic(id, dependencies);
        changed.add("dependencies");
      }
    }
    if (edit.writeScopes() != null) {
      scopes = scopes(edit.writeScopes(), limits);
      if (!scopes.equals(before.writeScopes())) {
        changed.add("write_scopes");
      }
    }
    if (changed.isEmpty()) {
      return task;
    }
    put(task.next(now).with(new Task.Definition(title, description, dependencies, scopes)));
    List<BoardEvent> consequences =
        rederive(Set.of(id), new BoardEvent.Cause("dependencies_changed", id), now).events();
    Task updated = live.get(id);
    events.add(new BoardEvent.Updated(updated, member.name(), changed, overlaps(updated)));
    events.addAll(consequences);
    return updated;
  }

  /** A member claims a ready task; nothing else on the board changes status because of it. */
  public Task claim(Actor actor, TaskId id, long expectedRevision, Instant now) {
    Task claimed = require(id).claim(actor, expectedRevision, now);
    put(claimed);
    events.add(new BoardEvent.Claimed(claimed));
    return claimed;
  }

  /** The claimant's heartbeat, with progress when it reports some. */
  public Task heartbeat(
      Actor actor,
      TaskId id,
      long expectedRevision,
      Task.@Nullable Progress progress,
      Instant now) {
    Task task = require(id);
    Task beating = task.heartbeat(actor, expectedRevision, progress, now);
    put(beating);
    if (beating.progressDiffers(task)) {
      events.add(new BoardEvent.Progressed(beating));
    }
    return beating;
  }

  /** The owner (or the lead) gives the task up; it has no owner afterwards. */
  public Task release(Actor actor, TaskId id, long expectedRevision, Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "release");
    task.requireRevision(expectedRevision);
    String previousOwner = task.owner();
    if (previousOwner == null) {
      throw TaskProblem.invalidTransition(task, "release", "it has no owner");
    }
    if (task.state().terminal()) {
      throw TaskProblem.invalidTransition(task, "release", "it is " + task.status().wire());
    }
    put(reopened(task, now));
    List<BoardEvent> consequences =
        rederive(Set.of(id), new BoardEvent.Cause("released", id), now).events();
    events.add(new BoardEvent.Released(live.get(id), previousOwner, member.name()));
    events.addAll(consequences);
    return live.get(id);
  }

  /**
   * Gives the task to a member. Only the lead may give it to someone else or take it from its
   * owner; a claimed task stays in progress under its new owner, with a fresh claim time-out.
   */
  public Task reassign(
      Actor actor,
      TaskId id,
      long expectedRevision,
      String target,
      TeamMembers members,
      Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireMember(actor, "assign tasks");
    checkAssignable(member, target, members);
    if (!member.lead() && task.owner() != null && !task.owner().equals(member.name())) {
      throw BoardProblems.leadOnly("take a task from the member that owns it");
    }
    task.requireRevision(expectedRevision);
    if (task.state().terminal()) {
      throw TaskProblem.invalidTransition(task, "reassign", "it is " + task.status().wire());
    }
    Task.Claim handed = task.claim().handedTo(target, task.state() == TaskState.IN_PROGRESS, now);
    Task reassigned = task.next(now).with(task.standing().withClaim(handed));
    put(reassigned);
    events.add(new BoardEvent.Reassigned(reassigned, task.owner(), member.name()));
    return reassigned;
  }

  /** Completes a claimed task; dependents whose last dependency it was become ready. */
  public Task complete(
      Actor actor,
      TaskId id,
      long expectedRevision,
      @Nullable String result,
      TaskLimits limits,
      Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "complete");
    task.requireRevision(expectedRevision);
    requireClaimed(task, "complete");
    String checked = result == null ? null : limits.result().check(result);
    Task.Outcome completed = new Task.Outcome(checked, task.outcome().error());
    put(task.next(now).with(task.standing().ended(TaskState.COMPLETED, completed)));
    Consequences consequences = rederive(Set.of(id), new BoardEvent.Cause("completed", id), now);
    events.add(new BoardEvent.Completed(live.get(id), member.name(), consequences.nowReady()));
    events.addAll(consequences.events());
    return live.get(id);
  }

  /** Fails a claimed task; its dependents become blocked, transitively. */
  public Task fail(
      Actor actor,
      TaskId id,
      long expectedRevision,
      @Nullable String error,
      TaskLimits limits,
      Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "fail");
    task.requireRevision(expectedRevision);
    requireClaimed(task, "fail");
    String checked = limits.error().checkNotBlank(error);
    Task.Outcome failed = new Task.Outcome(task.outcome().result(), checked);
    put(task.next(now).with(task.standing().ended(TaskState.FAILED, failed)));
    Consequences consequences = rederive(Set.of(id), new BoardEvent.Cause("failed", id), now);
    events.add(new BoardEvent.Failed(live.get(id), member.name(), consequences.nowBlocked()));
    events.addAll(consequences.events());
    return live.get(id);
  }

  /** Cancels an unfinished task; its dependents become blocked, transitively. */
  public Task cancel(Actor actor, TaskId id, long expectedRevision, Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "cancel");
    task.requireRevision(expectedRevision);
    if (task.state().terminal()) {
      throw TaskProblem.invalidTransition(task, "cancel", "it is " + task.status().wire());
    }
    put(task.next(now).with(task.standing().ended(TaskState.CANCELLED, task.outcome())));
    Consequences consequences = rederive(Set.of(id), new BoardEvent.Cause("cancelled", id), now);
    events.add(new BoardEvent.Cancelled(live.get(id), member.name(), consequences.nowBlocked()));
    events.addAll(consequences.events());
    return live.get(id);
  }

  /**
   * Deletes a task, leaving a tombstone; its id is never reused and tasks that depend on it become
   * blocked (a missing dependency).
   */
  public Task delete(Actor actor, TaskId id, long expectedRevision, Instant now) {
    Task task = require(id);
    Actor.Member member = task.requireOwnerOrLead(actor, "delete");
    task.requireRevision(expectedRevision);
    Task tombstone = task.next(now).deletedBy(member.name(), now);
    put(tombstone);
    Consequences consequences = rederive(Set.of(), new BoardEvent.Cause("deleted", id), now);
    events.add(new BoardEvent.Deleted(tombstone, member.name(), consequences.nowBlocked()));
    events.addAll(consequences.events());
    return tombstone;
  }

  /**
   * Recovers every claim whose heartbeats stopped for longer than the team's claim time-out: the
   * task loses its owner and is derived afresh (ready, unless a dependency vanished meanwhile).
   */
  public List<Task> expireClaims(Instant now) {
    Duration timeout = effectiveClaimTimeout();
    List<Task> expired =
        live.values().stream().filter(task -> task.claimExpired(now, timeout)).toList();
    List<Task> recovered = new ArrayList<>();
    for (Task task : expired) {
      put(reopened(task, now));
      Consequences consequences =
          rederive(Set.of(task.id()), new BoardEvent.Cause("claim_expired", task.id()), now);
      Task after = live.get(task.id());
      events.add(
          new BoardEvent.ClaimExpired(
              after,
              Objects.requireNonNull(task.owner()),
              Objects.requireNonNull(task.claim().heartbeatAt()),
              timeout,
              consequences.nowBlocked()));
      events.addAll(consequences.events());
      recovered.add(after);
    }
    return recovered;
  }

  // ---- planned tasks ----

  /**
   * Adds planned tasks at once, in order, with ids from the counter; their dependencies name each
   * other by key. The batch's own rules (keys, dependencies, cycles) were checked by its plan; the
   * board checks what holds for every task. Held tasks wait for {@link #releaseHeld}.
   */
  public List<Task> addPlanned(
      Actor.Member member,
      UUID planId,
      List<PlannedTask> plan,
      boolean hold,
      TeamMembers members,
      TaskLimits limits,
      Instant now) {
    requireRoom(plan.size(), limits);
    record Checked(
        PlannedTask planned, String title, String description, List<WriteScope> scopes) {}
    List<Checked> checked = new ArrayList<>();
    for (PlannedTask planned : plan) {
      if (planned.assignee() != null) {
        checkAssignable(member, planned.assignee(), members);
      }
      checked.add(
          new Checked(
              planned,
              limits.title().checkNotBlank(planned.title()),
              planned.description() == null
                  ? ""
                  : limits.description().check(planned.description()),
              scopes(planned.writeScopes(), limits)));
    }
    Map<String, TaskId> ids = new LinkedHashMap<>();
    for (PlannedTask planned : plan) {
      ids.put(planned.key(), allocate());
    }
    for (Checked task : checked) {
      put(
          Task.created(
              ids.get(task.planned().key()),
              new Task.Definition(
                  task.title(),
                  task.description(),
                  task.planned().dependencies().stream().map(ids::get).toList(),
                  task.scopes()),
              hold,
              task.planned().assignee(),
              new Task.Origin(member.name(), now, planId, task.planned().key())));
    }
    rederive(Set.copyOf(ids.values()), new BoardEvent.Cause("plan_imported", null), now);
    List<Task> created = ids.values().stream().map(live::get).toList();
    for (Task task : created) {
      events.add(new BoardEvent.Created(task, member.name(), overlaps(task)));
    }
    return created;
  }

  /** Releases a plan's held tasks: each takes its derived status (and says so in its own event). */
  public Consequences releaseHeld(UUID planId, Instant now) {
    for (Task task : List.copyOf(live.values())) {
      if (task.held() && task.state() == TaskState.OPEN && planId.equals(task.origin().planId())) {
        put(task.with(task.standing().released()));
      }
    }
    Consequences consequences =
        rederive(Set.of(), new BoardEvent.Cause("plan_approved", null), now);
    events.addAll(consequences.events());
    return consequences;
  }

  // ---- settings ----

  /** Sets the team's claim time-out (null returns to the default); the lead or the owner may. */
  public void changeClaimTimeout(
      Actor actor,
      long expectedRevision,
      @Nullable Duration timeout,
      TaskLimits limits,
      Instant now) {
    if (actor instanceof Actor.Member member && !member.lead()) {
      throw BoardProblems.leadOnly("change the board's settings");
    }
    if (expectedRevision != settingsRevision) {
      throw BoardProblems.staleSettings(settingsRevision, expectedRevision);
    }
    if (timeout != null
        && (timeout.compareTo(limits.minClaimTimeout()) < 0
            || timeout.compareTo(limits.maxClaimTimeout()) > 0)) {
      throw BoardProblems.invalidClaimTimeout(limits.minClaimTimeout(), limits.maxClaimTimeout());
    }
    claimTimeout = timeout;
    settingsRevision++;
    settingsChanged = true;
    events.add(
        new BoardEvent.SettingsChanged(
            timeout, effectiveClaimTimeout(), actor.label(), settingsRevision));
  }

  // ---- reading ----

  /** The task, live or a tombstone the board was loaded with. */
  public Task require(TaskId id) {
    Task task = live.get(id);
    if (task != null) {
      return task;
    }
    Task tombstone = tombstones.get(id);
    if (tombstone != null) {
      throw TaskProblem.deleted(tombstone);
    }
    throw BoardProblems.taskNotFound(id);
  }

  /** Write-scope overlaps between the task and the other active tasks. */
  public List<WriteScopes.Overlap> overlaps(Task task) {
    if (!task.status().active() || task.writeScopes().isEmpty()) {
      return List.of();
    }
    Map<TaskId, List<WriteScope>> others = new HashMap<>();
    for (Task other : live.values()) {
      if (other.status().active() && !other.writeScopes().isEmpty()) {
        others.put(other.id(), other.writeScopes());
      }
    }
    return WriteScopes.overlaps(task.id(), task.writeScopes(), others);
  }

  public UUID teamId() {
    return teamId;
  }

  public String ownerId() {
    return ownerId;
  }

  public long nextTaskId() {
    return nextTaskId;
  }

  public @Nullable Duration claimTimeout() {
    return claimTimeout;
  }

  public Duration effectiveClaimTimeout() {
    return claimTimeout == null ? defaultClaimTimeout : claimTimeout;
  }

  public long settingsRevision() {
    return settingsRevision;
  }

  public boolean settingsChanged() {
    return settingsChanged;
  }

  /** Live tasks in id order. */
  public List<Task> tasks() {
    return List.copyOf(live.values());
  }

  /** What happened since the board was loaded, in order. */
  public List<BoardEvent> events() {
    return List.copyOf(events);
  }

  /** Tasks added or changed since the board was loaded, with the revision each was loaded at. */
  public List<Change> changes() {
    return touched.values().stream()
        .map(task -> new Change(task, loadedRevisions.get(task.id())))
        .toList();
  }

  /**
   * A task to store.
   *
   * @param loadedRevision the revision it was loaded at, or null for a new task
   */
  public record Change(Task task, @Nullable Long loadedRevision) {}

  /** Status changes a transition caused in other tasks, and their events. */
  public record Consequences(
      List<TaskId> nowReady,
      List<TaskId> nowPending,
      List<TaskId> nowBlocked,
      List<BoardEvent> events) {}

  // ---- internals ----

  private static Actor.Member requireMember(Actor actor, String action) {
    if (actor instanceof Actor.Member member) {
      return member;
    }
    throw BoardProblems.membersOnly(action);
  }

  private static void checkAssignable(Actor.Member actor, String target, TeamMembers members) {
    if (!members.has(target)) {
      throw BoardProblems.unknownMember(target);
    }
    if (!actor.lead() && !target.equals(actor.name())) {
      throw BoardProblems.leadOnly("assign a task to another member");
    }
  }

  private static void requireClaimed(Task task, String action) {
    if (task.state() != TaskState.IN_PROGRESS) {
      throw TaskProblem.invalidTransition(
          task, action, "it is " + task.status().wire() + ", and only a claimed task can be");
    }
  }

  private static Task reopened(Task task, Instant now) {
    return task.next(now).with(task.standing().reopened());
  }

  private void requireRoom(int adding, TaskLimits limits) {
    if (live.size() + adding > limits.maxTasksPerTeam()) {
      throw BoardProblems.tooManyTasks(limits.maxTasksPerTeam(), live.size() + adding);
    }
  }

  private TaskId allocate() {
    if (nextTaskId > TaskId.MAX) {
      throw BoardProblems.outOfIds(TaskId.MAX, nextTaskId);
    }
    return TaskId.of(nextTaskId++);
  }

  private List<TaskId> liveDependencies(List<Long> requested, TaskLimits limits) {
    List<Long> distinct = requested.stream().distinct().sorted().toList();
    if (distinct.size() > limits.maxDependencies()) {
      throw BoardProblems.tooManyDependencies(limits.maxDependencies(), distinct.size());
    }
    List<TaskId> dependencies = new ArrayList<>();
    for (long value : distinct) {
      if (value < 1 || value > TaskId.MAX) {
        throw BoardProblems.noSuchDependency(value);
      }
      TaskId dependency = TaskId.of(value);
      if (!live.containsKey(dependency)) {
        throw BoardProblems.unknownDependency(dependency, value < nextTaskId);
      }
      dependencies.add(dependency);
    }
    return List.copyOf(dependencies);
  }

  private static List<WriteScope> scopes(List<String> raw, TaskLimits limits) {
    for (String scope : raw) {
      limits.writeScope().checkNotBlank(scope);
    }
    List<WriteScope> scopes = WriteScopes.normalise(raw);
    if (scopes.size() > limits.maxWriteScopes()) {
      throw BoardProblems.tooManyWriteScopes(limits.maxWriteScopes(), scopes.size());
    }
    return scopes;
  }

  private void requireAcyclic(TaskId changed, List<TaskId> dependencies) {
    Map<TaskId, List<TaskId>> graph = new LinkedHashMap<>();
    graph.put(changed, dependencies);
    for (Task task : live.values()) {
      graph.putIfAbsent(task.id(), task.dependencies());
    }
    DependencyCycles.find(graph)
        .ifPresent(
            cycle -> {
              throw BoardProblems.cycle(cycle);
            });
  }

  private void put(Task task) {
    if (task.deleted()) {
      live.remove(task.id());
      tombstones.put(task.id(), task);
    } else {
      live.put(task.id(), task);
    }
    touched.put(task.id(), task);
  }

  /**
   * Derives every live task's status afresh. Tasks in {@code acted} were changed by the transition
   * itself and already carry its revision; every other task whose status changed moves to its next
   * revision and gets an event naming the cause.
   */
  private Consequences rederive(Set<TaskId> acted, BoardEvent.Cause cause, Instant now) {
    Map<TaskId, StatusDerivation.Node> nodes = new HashMap<>();
    for (Task task : live.values()) {
      nodes.put(task.id(), task.node());
    }
    Map<TaskId, Derived> derived = StatusDerivation.derive(nodes);
    List<TaskId> ready = new ArrayList<>();
    List<TaskId> pending = new ArrayList<>();
    List<TaskId> blocked = new ArrayList<>();
    List<BoardEvent> caused = new ArrayList<>();
    Set<TaskId> seen = new HashSet<>();
    for (Task task : List.copyOf(live.values())) {
      Derived status = derived.get(task.id());
      seen.add(task.id());
      if (status.equals(task.derived())) {
        continue;
      }
      if (acted.contains(task.id())) {
        put(task.with(task.standing().withDerived(status)));
        continue;
      }
      Task changed = task.next(now).with(task.standing().withDerived(status));
      put(changed);
      switch (status.status()) {
        case READY -> {
          ready.add(task.id());
          caused.add(new BoardEvent.BecameReady(changed, cause));
        }
        case PENDING -> {
          pending.add(task.id());
          caused.add(new BoardEvent.BecamePending(changed, cause));
        }
        case BLOCKED -> {
          blocked.add(task.id());
          caused.add(new BoardEvent.Blocked(changed, cause));
        }
        default ->
            throw new IllegalStateException(
                "derivation moved task " + task.id() + " to " + status.status());
      }
    }
    return new Consequences(List.copyOf(ready), List.copyOf(pending), List.copyOf(blocked), caused);
  }
}
