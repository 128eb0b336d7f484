package io.agentteams.taskboard.task.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.platform.bounds.TextBound;
import io.agentteams.platform.problem.DomainFailure;
import io.agentteams.taskboard.plan.domain.PlanBoard;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Random sequences of operations applied both to the {@link Board} aggregate and to a naive model
 * of the rules (plain maps, status from {@link StatusModel}): after every operation both must agree
 * on whether it was allowed, on every task's state, owner and status, and on which other tasks the
 * operation made ready, pending or blocked (the events say so).
 */
class BoardModelPropertiesTest {

  static final Duration TIMEOUT = Duration.ofMinutes(5);
  static final List<String> MEMBERS = List.of("lead", "ana", "ben");
  static final TaskLimits LIMITS =
      new TaskLimits(
          new TextBound("task.title", 200, 400),
          new TextBound("task.description", 4000, 8000),
          new TextBound("task.result", 6000, 12000),
          new TextBound("task.error", 2000, 4000),
          new TextBound("task.phase", 80, 160),
          new TextBound("task.write-scope", 256, 512),
          1000,
          50,
          20,
          Duration.ofSeconds(10),
          Duration.ofHours(24));
  static final TeamMembers TEAM = new TeamMembers(Set.copyOf(MEMBERS));

  enum Kind {
    CREATE,
    CLAIM,
    RELEASE,
    REASSIGN,
    HEARTBEAT,
    COMPLETE,
    FAIL,
    CANCEL,
    DELETE,
    SET_DEPENDENCIES,
    IMPORT_PLAN,
    APPROVE,
    TICK,
    EXPIRE
  }

  /**
   * One operation; the numbers pick targets among what exists when it runs.
   *
   * @param actor 0 = the lead, 1 and 2 = members, 3 = the team's owner
   * @param stale whether to send an outdated revision
   * @param asOwner whether the target's owner acts, if it has one
   */
  record Op(
      Kind kind,
      int actor,
      int target,
      List<Integer> picks,
      boolean flag,
      boolean stale,
      boolean asOwner) {}

  @Property(tries = 1500)
  void boardAgreesWithTheModelAfterEveryOperation(@ForAll("operations") List<Op> operations) {
    Board board = Board.empty(UUID.randomUUID(), "alice", TIMEOUT);
    Model model = new Model();
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    int accepted = 0;
    for (Op op : operations) {
      if (op.kind() == Kind.TICK) {
        now = now.plusSeconds(op.target() % 600);
        continue;
      }
      Map<Long, Derived> before = model.statuses();
      int eventsBefore = board.events().size();
      long target = model.pickTarget(op.kind(), op.target());
      int actor = model.pickActor(op, target);
      boolean realAccepted = apply(board, op, actor, target, now, model);
      Set<Long> acted = new HashSet<>();
      boolean modelAccepted = model.apply(op, actor, target, now, acted);
      assertThat(realAccepted).as("%s allowed", op).isEqualTo(modelAccepted);
      if (realAccepted) {
        accepted++;
      }
      assertAgree(board, model, op);
      assertConsequences(
          board.events().subList(eventsBefore, board.events().size()), before, model, acted, op);
    }
    Statistics.label("accepted operations").collect(accepted > operations.size() / 3);
    Statistics.label("made dependents ready")
        .collect(board.events().stream().anyMatch(e -> e instanceof BoardEvent.BecameReady));
    Statistics.label("blocked dependents")
        .collect(board.events().stream().anyMatch(e -> e instanceof BoardEvent.Blocked));
    Statistics.label("recovered claims")
        .collect(board.events().stream().anyMatch(e -> e instanceof BoardEvent.ClaimExpired));
  }

  // ---- driving the real board ----

  private static boolean apply(
      Board board, Op op, int actorIndex, long target, Instant now, Model model) {
    Actor actor = actor(actorIndex);
    TaskId id = TaskId.of(target);
    long expected = model.revision(target) - (op.stale() ? 1 : 0);
    try {
      switch (op.kind()) {
        case CREATE ->
            board.create(
                actor,
                new NewTask(
                    "task",
                    null,
                    model.picks(op.picks()),
                    List.of(),
                    op.flag() ? name(actorIndex) : null),
                TEAM,
                LIMITS,
                now);
        case CLAIM -> board.claim(actor, id, expected, now);
        case RELEASE -> board.release(actor, id, expected, now);
        case REASSIGN -> board.reassign(actor, id, expected, member(op), TEAM, now);
        case HEARTBEAT -> board.heartbeat(actor, id, expected, null, now);
        case COMPLETE -> board.complete(actor, id, expected, "done", LIMITS, now);
        case FAIL -> board.fail(actor, id, expected, "broken", LIMITS, now);
        case CANCEL -> board.cancel(actor, id, expected, now);
        case DELETE -> board.delete(actor, id, expected, now);
        case SET_DEPENDENCIES ->
            board.update(
                actor,
                id,
                expected,
                new TaskEdit(null, null, model.picks(op.picks()), null),
                LIMITS,
                now);
        case IMPORT_PLAN ->
            PlanBoard.importPlan(
                board,
                actor,
                model.nextPlan(),
                model.plannedTasks(op.picks()),
                op.flag(),
                TEAM,
                LIMITS,
                now);
        case APPROVE -> PlanBoard.approve(board, actor, model.plan(op.target()), now);
        case EXPIRE -> board.expireClaims(now);
        default -> throw new IllegalStateException();
      }
      return true;
    } catch (DomainFailure refused) {
      return false;
    }
  }

  private static Actor actor(int index) {
    return index == 3
        ? new Actor.TeamOwner("alice")
        : new Actor.Member(MEMBERS.get(index), index == 0);
  }

  private static String name(int actor) {
    return actor == 3 ? "owner" : MEMBERS.get(actor);
  }

  private static String member(Op op) {
    return MEMBERS.get(op.picks().isEmpty() ? 0 : op.picks().get(0) % MEMBERS.size());
  }

  private static void assertAgree(Board board, Model model, Op op) {
    Map<Long, Task> live = new TreeMap<>();
    board.tasks().forEach(t -> live.put(t.id().value(), t));
    assertThat(live.keySet()).as("live tasks after %s", op).isEqualTo(model.liveIds());
    Map<Long, Derived> expected = model.statuses();
    for (Task task : live.values()) {
      Model.T m = model.tasks.get(task.id().value());
      assertThat(task.derived())
          .as("status of %s after %s", task.id(), op)
          .isEqualTo(expected.get(m.id));
      assertThat(task.state()).as("state of %s after %s", task.id(), op).isEqualTo(m.state);
      assertThat(task.owner()).as("owner of %s after %s", task.id(), op).isEqualTo(m.owner);
      assertThat(task.revision())
          .as("revision of %s after %s", task.id(), op)
          .isEqualTo(m.revision);
    }
    assertThat(board.nextTaskId()).isEqualTo(model.next);
  }

  /** The board's consequence events name exactly the tasks the model says moved. */
  private static void assertConsequences(
      List<BoardEvent> events, Map<Long, Derived> before, Model model, Set<Long> acted, Op op) {
    Map<Long, Derived> after = model.statuses();
    Set<Long> ready = new HashSet<>();
    Set<Long> pending = new HashSet<>();
    Set<Long> blocked = new HashSet<>();
    before.forEach(
        (id, status) -> {
          Derived now = after.get(id);
          if (now == null || acted.contains(id) || now.equals(status)) {
            return;
          }
          switch (now.status()) {
            case READY -> ready.add(id);
            case PENDING -> pending.add(id);
            case BLOCKED -> blocked.add(id);
            default -> throw new AssertionError("model moved " + id + " to " + now);
          }
        });
    Set<Long> eventReady = new HashSet<>();
    Set<Long> eventPending = new HashSet<>();
    Set<Long> eventBlocked = new HashSet<>();
    for (BoardEvent event : events) {
      if (event instanceof BoardEvent.BecameReady e) {
        eventReady.add(e.task().id().value());
      } else if (event instanceof BoardEvent.BecamePending e) {
        eventPending.add(e.task().id().value());
      } else if (event instanceof BoardEvent.Blocked e) {
        eventBlocked.add(e.task().id().value());
      } else if (event instanceof BoardEvent.Completed e) {
        assertThat(ids(e.nowReady())).as("now ready after %s", op).isEqualTo(ready);
      } else if (event instanceof BoardEvent.Failed e) {
        assertThat(ids(e.nowBlocked())).as("now blocked after %s", op).isEqualTo(blocked);
      } else if (event instanceof BoardEvent.Cancelled e) {
        assertThat(ids(e.nowBlocked())).as("now blocked after %s", op).isEqualTo(blocked);
      } else if (event instanceof BoardEvent.Deleted e) {
        assertThat(ids(e.nowBlocked())).as("now blocked after %s", op).isEqualTo(blocked);
      }
    }
    assertThat(eventReady).as("became ready after %s", op).isEqualTo(ready);
    assertThat(eventPending).as("became pending after %s", op).isEqualTo(pending);
    assertThat(eventBlocked).as("blocked after %s", op).isEqualTo(blocked);
  }

  private static Set<Long> ids(List<TaskId> ids) {
    Set<Long> values = new HashSet<>();
    ids.forEach(id -> values.add(id.value()));
    return values;
  }

  // ---- the model ----

  /** The rules as plain bookkeeping. */
  static final class Model {

    static final class T {
      long id;
      TaskState state = TaskState.OPEN;
      boolean held;
      boolean deleted;
      List<Long> dependencies = new ArrayList<>();
      String owner;
      long revision = 1;
      Instant heartbeat;
      UUID plan;
    }

    final Map<Long, T> tasks = new TreeMap<>();
    final List<UUID> plans = new ArrayList<>();
    long next = 1;
    UUID pendingPlan;

    Set<Long> liveIds() {
      Set<Long> ids = new java.util.TreeSet<>();
      tasks.values().stream().filter(t -> !t.deleted).forEach(t -> ids.add(t.id));
      return ids;
    }

    long revision(long id) {
      T task = tasks.get(id);
      return task == null ? 1 : task.revision;
    }

    List<Long> picks(List<Integer> picks) {
      List<Long> ids = new ArrayList<>();
      if (next > 1) {
        picks.forEach(p -> ids.add(1 + (long) (p % (next - 1))));
      }
      return ids;
    }

    UUID nextPlan() {
      pendingPlan = UUID.randomUUID();
      return pendingPlan;
    }

    UUID plan(int pick) {
      return plans.isEmpty() ? new UUID(0, 0) : plans.get(pick % plans.size());
    }

    /** A plan of 1 + picks tasks where task i may depend on earlier ones. */
    List<PlannedTask> plannedTasks(List<Integer> picks) {
      List<PlannedTask> planned = new ArrayList<>();
      for (int i = 0; i <= picks.size(); i++) {
        List<String> dependencies = new ArrayList<>();
        if (i > 0 && picks.get(i - 1) % 3 != 0) {
          dependencies.add("p" + (picks.get(i - 1) % i));
        }
        planned.add(new PlannedTask("p" + i, "planned", null, dependencies, List.of(), null));
      }
      return planned;
    }

    Map<Long, Derived> statuses() {
      Map<TaskId, StatusDerivation.Node> nodes = new HashMap<>();
      for (T task : tasks.values()) {
        if (!task.deleted) {
          nodes.put(
              TaskId.of(task.id),
              new StatusDerivation.Node(
                  task.state, task.held, task.dependencies.stream().map(TaskId::of).toList()));
        }
      }
      Map<Long, Derived> result = new HashMap<>();
      StatusModel.derive(nodes).forEach((id, derived) -> result.put(id.value(), derived));
      return result;
    }

    /** Applies the operation if the rules allow it; bumps revisions like the board must. */
    /**
     * Mostly a task the operation is meant for (a ready one to claim, a claimed one to complete),
     * else any live task, sometimes any id at all (deleted or not yet existing).
     */
    long pickTarget(Kind kind, int pick) {
      Map<Long, Derived> statuses = statuses();
      List<Long> suited =
          liveIds().stream()
              .filter(
                  id ->
                      switch (kind) {
                        case CLAIM -> statuses.get(id).status() == TaskStatus.READY;
                        case COMPLETE, FAIL, HEARTBEAT, REASSIGN ->
                            tasks.get(id).state == TaskState.IN_PROGRESS;
                        case RELEASE -> tasks.get(id).owner != null;
                        default -> true;
                      })
              .toList();
      List<Long> live = new ArrayList<>(liveIds());
      if (!suited.isEmpty() && pick % 3 != 0) {
        return suited.get(pick % suited.size());
      }
      if (!live.isEmpty() && pick % 8 != 0) {
        return live.get(pick % live.size());
      }
      return 1 + (pick % next);
    }

    /** The target's owner when the operation says so and it has one. */
    int pickActor(Op op, long target) {
      T task = tasks.get(target);
      if (op.asOwner() && task != null && task.owner != null) {
        return MEMBERS.indexOf(task.owner);
      }
      return op.actor();
    }

    boolean apply(Op op, int actor, long id, Instant now, Set<Long> acted) {
      boolean member = actor != 3;
      boolean lead = actor == 0;
      String name = member ? MEMBERS.get(actor) : null;
      T task = tasks.get(id);
      boolean live = task != null && !task.deleted;
      boolean revisionOk = !op.stale();
      boolean ownerOrLead = live && (lead || (name != null && name.equals(task.owner)));
      Map<Long, Derived> before = statuses();
      switch (op.kind()) {
        case CREATE -> {
          List<Long> dependencies = picks(op.picks());
          // The team's owner creates tasks too, but cannot name itself ("owner" is no member).
          if ((!member && op.flag()) || !dependencies.stream().allMatch(this::isLive)) {
            return false;
          }
          T created = new T();
          created.id = next++;
          created.dependencies = new ArrayList<>(new java.util.TreeSet<>(dependencies));
          created.owner = op.flag() ? name : null;
          tasks.put(created.id, created);
          acted.add(created.id);
        }
        case CLAIM -> {
          if (!member
              || !live
              || (task.owner != null && !task.owner.equals(name))
              || !revisionOk
              || before.get(id).status() != TaskStatus.READY) {
            return false;
          }
          task.state = TaskState.IN_PROGRESS;
          task.owner = name;
          task.heartbeat = now;
          task.revision++;
          acted.add(id);
        }
        case RELEASE -> {
          if (!member
              || !ownerOrLead
              || !revisionOk
              || task.owner == null
              || task.state.terminal()) {
            return false;
          }
          reopen(task);
          acted.add(id);
        }
        case REASSIGN -> {
          String target = member(op);
          if (!member
              || !live
              || (!lead && !target.equals(name))
              || (!lead && task.owner != null && !task.owner.equals(name))
              || !revisionOk
              || task.state.terminal()) {
            return false;
          }
          task.owner = target;
          if (task.state == TaskState.IN_PROGRESS) {
            task.heartbeat = now;
          }
          task.revision++;
          acted.add(id);
        }
        case HEARTBEAT -> {
          if (!member
              || !live
              || task.state != TaskState.IN_PROGRESS
              || !name.equals(task.owner)
              || !revisionOk) {
            return false;
          }
          task.heartbeat = now;
          task.revision++;
          acted.add(id);
        }
        case COMPLETE, FAIL -> {
          if (!member || !ownerOrLead || !revisionOk || task.state != TaskState.IN_PROGRESS) {
            return false;
          }
          task.state = op.kind() == Kind.COMPLETE ? TaskState.COMPLETED : TaskState.FAILED;
          task.revision++;
          acted.add(id);
        }
        case CANCEL -> {
          if (!member || !ownerOrLead || !revisionOk || task.state.terminal()) {
            return false;
          }
          task.state = TaskState.CANCELLED;
          task.revision++;
          acted.add(id);
        }
        case DELETE -> {
          if (!member || !ownerOrLead || !revisionOk) {
            return false;
          }
          task.deleted = true;
          task.revision++;
          acted.add(id);
        }
        case SET_DEPENDENCIES -> {
          List<Long> wanted = new ArrayList<>(new java.util.TreeSet<>(picks(op.picks())));
          if (!member || !ownerOrLead || !revisionOk || !wanted.stream().allMatch(this::isLive)) {
            return false;
          }
          if (wanted.equals(task.dependencies)) {
            return true;
          }
          if (task.state != TaskState.OPEN || closesCycle(id, wanted)) {
            return false;
          }
          task.dependencies = wanted;
          task.revision++;
          acted.add(id);
        }
        case IMPORT_PLAN -> {
          if (!member) {
            return false;
          }
          List<PlannedTask> planned = plannedTasks(op.picks());
          Map<String, Long> ids = new HashMap<>();
          for (PlannedTask p : planned) {
            ids.put(p.key(), next++);
          }
          for (PlannedTask p : planned) {
            T created = new T();
            created.id = ids.get(p.key());
            created.held = op.flag();
            created.plan = pendingPlan;
            created.dependencies =
                new ArrayList<>(
                    new java.util.TreeSet<>(p.dependencies().stream().map(ids::get).toList()));
            tasks.put(created.id, created);
            acted.add(created.id);
          }
          plans.add(pendingPlan);
        }
        case APPROVE -> {
          if (actor != 3) {
            return false;
          }
          UUID plan = plan(op.target());
          for (T t : tasks.values()) {
            if (!t.deleted && t.held && plan.equals(t.plan) && t.state == TaskState.OPEN) {
              t.held = false;
            }
          }
        }
        case EXPIRE -> {
          // One claim after the other, in id order, each with its own consequences.
          List<T> expired =
              tasks.values().stream()
                  .filter(t -> !t.deleted && t.state == TaskState.IN_PROGRESS)
                  .filter(t -> t.heartbeat.plus(TIMEOUT).isBefore(now))
                  .toList();
          for (T t : expired) {
            Map<Long, Derived> step = statuses();
            reopen(t);
            acted.add(t.id);
            bumpConsequences(step, acted);
          }
          return true;
        }
        default -> throw new IllegalStateException();
      }
      bumpConsequences(before, acted);
      return true;
    }

    /** Every task whose status moved as a consequence is at its next revision. */
    private void bumpConsequences(Map<Long, Derived> before, Set<Long> acted) {
      Map<Long, Derived> after = statuses();
      before.forEach(
          (taskId, status) -> {
            if (!acted.contains(taskId)
                && after.containsKey(taskId)
                && !after.get(taskId).equals(status)) {
              tasks.get(taskId).revision++;
            }
          });
    }

    private static void reopen(T task) {
      task.state = TaskState.OPEN;
      task.owner = null;
      task.revision++;
    }

    private boolean isLive(long id) {
      T task = tasks.get(id);
      return task != null && !task.deleted;
    }

    /** Whether {@code id} depending on {@code wanted} would let it reach itself. */
    private boolean closesCycle(long id, List<Long> wanted) {
      Set<Long> seen = new HashSet<>();
      List<Long> frontier = new ArrayList<>(wanted);
      while (!frontier.isEmpty()) {
        long next = frontier.remove(frontier.size() - 1);
        if (next == id) {
          return true;
        }
        if (seen.add(next) && tasks.containsKey(next) && !tasks.get(next).deleted) {
          frontier.addAll(tasks.get(next).dependencies);
        }
      }
      return false;
    }
  }

  // ---- generators ----

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Kind> kinds =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(Kind.CREATE)),
            Tuple.of(5, Arbitraries.just(Kind.CLAIM)),
            Tuple.of(2, Arbitraries.just(Kind.RELEASE)),
            Tuple.of(2, Arbitraries.just(Kind.REASSIGN)),
            Tuple.of(2, Arbitraries.just(Kind.HEARTBEAT)),
            Tuple.of(5, Arbitraries.just(Kind.COMPLETE)),
            Tuple.of(2, Arbitraries.just(Kind.FAIL)),
            Tuple.of(1, Arbitraries.just(Kind.CANCEL)),
            Tuple.of(2, Arbitraries.just(Kind.DELETE)),
            Tuple.of(3, Arbitraries.just(Kind.SET_DEPENDENCIES)),
            Tuple.of(1, Arbitraries.just(Kind.IMPORT_PLAN)),
            Tuple.of(1, Arbitraries.just(Kind.APPROVE)),
            Tuple.of(4, Arbitraries.just(Kind.TICK)),
            Tuple.of(4, Arbitraries.just(Kind.EXPIRE)));
    Arbitrary<Op> op =
        Combinators.combine(
                kinds,
                Arbitraries.frequency(
                    Tuple.of(4, 0), Tuple.of(3, 1), Tuple.of(3, 2), Tuple.of(1, 3)),
                Arbitraries.integers()
                    .between(0, 10_000)
                    .withDistribution(RandomDistribution.uniform()),
                Arbitraries.integers()
                    .between(0, 10_000)
                    .withDistribution(RandomDistribution.uniform())
                    .list()
                    .ofMaxSize(4),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 11).map(i -> i == 0),
                Arbitraries.integers().between(0, 2).map(i -> i > 0))
            .as(Op::new);
    return op.list().ofMinSize(15).ofMaxSize(80);
  }
}
