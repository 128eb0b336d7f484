package io.agentteams.scheduler.admission.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.scheduler.job.domain.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Admission simulated on a fake clock, without sleeps: the domain policy, conversation heads and
 * job state machine that the database-backed loop applies, under a seeded workload.
 */
class AdmissionSimulationTest {

  private static final Duration TICK = Duration.ofSeconds(1);

  /** A seeded workload: owners with offered load 10:1:1 on 8 slots, some runs ask questions. */
  private static final class Workload {
    final SimulatedScheduler sim = new SimulatedScheduler(8);
    final Random random = new Random(20261201L);
    final TreeMap<Long, List<Runnable>> due = new TreeMap<>();
    final Map<UUID, Boolean> asked = new HashMap<>();
    final Map<String, Integer> conversations = Map.of("heavy", 24, "light-a", 8, "light-b", 8);
    long tick;

    /** Per pass: the owners that had admissible work when it started. */
    final List<Set<String>> backlogged = new ArrayList<>();

    /** Per pass: admissions per owner. */
    final List<Map<String, Integer>> admitted = new ArrayList<>();

    void submit(String owner) {
      sim.submit(owner, owner + "-c" + random.nextInt(conversations.get(owner)));
    }

    void at(long when, Runnable action) {
      due.computeIfAbsent(when, t -> new ArrayList<>()).add(action);
    }

    void step() {
      tick++;
      sim.clock.advance(TICK);
      List<Runnable> now = due.remove(tick);
      if (now != null) {
        now.forEach(Runnable::run);
      }
      Set<String> withWork = new HashSet<>();
      sim.admissible().forEach(candidate -> withWork.add(candidate.ownerId()));
      AdmissionPlan plan = sim.pass();
      Map<String, Integer> counts = new HashMap<>();
      for (Candidate candidate : plan.admitted()) {
        counts.merge(candidate.ownerId(), 1, Integer::sum);
        schedule(candidate.jobId());
      }
      backlogged.add(withWork);
      admitted.add(counts);
    }

    /** What an admitted job's run does: finish after 6..10 ticks, or (5 %) ask first. */
    void schedule(UUID job) {
      long runFor = 6 + random.nextInt(5);
      if (!asked.containsKey(job) && random.nextInt(100) < 5) {
        asked.put(job, true);
        at(tick + runFor, () -> sim.askInput(job));
        at(tick + runFor + 3 + random.nextInt(8), () -> sim.answer(job));
      } else {
        at(tick + runFor, () -> sim.complete(job));
      }
    }
  }

  @Test
  void threeOwnersWithTenToOneToOneLoadOnEightSlotsAreServedFairlyWithinEveryBound() {
    Workload load = new Workload();
    // 600 ticks of arrivals: per two ticks, 10 jobs for heavy and 1 each for the light owners.
    // Eight slots with 6..10-tick runs serve about one job per tick, so every owner, light ones
    // included (0.5 per tick against a fair share of 0.33), builds a backlog.
    for (int t = 0; t < 600; t++) {
      for (int i = 0; i < 5; i++) {
        load.submit("heavy");
      }
      if (t % 2 == 0) {
        load.submit("light-a");
      } else {
        load.submit("light-b");
      }
      load.step();
    }
    while (load.sim.admissible().size() + load.sim.active() > 0 || !load.due.isEmpty()) {
      load.step();
    }

    SimulatedScheduler sim = load.sim;
    assertThat(sim.maxActive).as("active never above the slots").isEqualTo(8);
    assertThat(sim.idleWhileAdmissible)
        .as("passes that left a slot free while work was admissible")
        .isZero();
    assertThat(sim.fifoViolations).as("FIFO violations within a conversation").isZero();
    assertThat(sim.doubleAdmissions).as("jobs admitted twice without an answer").isZero();
    assertThat(sim.admissions.stream().map(SimulatedScheduler.Admission::jobId).distinct().count())
        .as("every submitted job ran")
        .isEqualTo(600 * 6);

    // Jain's index over owners continuously backlogged through each window of 20 passes.
    List<Double> windows = new ArrayList<>();
    Map<String, Integer> overall = new LinkedHashMap<>();
    for (int start = 0; start + 20 <= load.backlogged.size(); start += 20) {
      Set<String> always = new HashSet<>(load.backlogged.get(start));
      Map<String, Integer> counts = new HashMap<>();
      for (int p = start; p < start + 20; p++) {
        always.retainAll(load.backlogged.get(p));
        load.admitted.get(p).forEach((owner, n) -> counts.merge(owner, n, Integer::sum));
      }
      if (always.size() >= 2) {
        windows.add(
            Fairness.jain(
                always.stream().map(owner -> (double) counts.getOrDefault(owner, 0)).toList()));
        always.forEach(owner -> overall.merge(owner, counts.getOrDefault(owner, 0), Integer::sum));
      }
    }
    System.out.printf(
        "simulation: %d passes, %d admissions, %d fairness windows, min Jain %.4f, overall %s%n",
        load.backlogged.size(),
        sim.admissions.size(),
        windows.size(),
        windows.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
        overall);
    assertThat(windows).as("windows in which several owners had a backlog").hasSizeGreaterThan(20);
    assertThat(windows.stream().mapToDouble(d -> d).min().orElseThrow())
        .as("the least fair window")
        .isGreaterThanOrEqualTo(0.95);
    assertThat(Fairness.jain(overall.values().stream().map(Integer::doubleValue).toList()))
        .as("fairness over all backlogged windows")
        .isGreaterThanOrEqualTo(0.95);
    // A FIFO queue would have given the heavy owner ten of every twelve admissions.
    Map<String, Long> byOwner = new HashMap<>();
    sim.admissions.stream()
        .filter(a -> a.pass() <= 600)
        .forEach(a -> byOwner.merge(a.owner(), 1L, Long::sum));
    assertThat(byOwner.get("heavy")).isLessThan(byOwner.get("light-a") * 2);
  }

  @Test
  void anUnfinishedRoundCarriesOverToTheNextPass() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID a1 = sim.submit("alice", "a-1");
    sim.submit("alice", "a-2");
    sim.submit("bob", "b-1");
    sim.submit("carol", "c-1");

    sim.pass();
    assertThat(sim.admittedOwners()).containsExactly("alice");
    sim.complete(a1);
    // Alice still has work, but the round goes on with Bob rather than starting over.
    sim.pass();
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob");
    assertThat(sim.rotation().owners()).containsExactly("carol", "alice", "bob");
  }

  @Test
  void theRoundCarriesOverEvenWhenTheServedOwnersQueueBecameEmpty() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID a1 = sim.submit("alice", "a-1");
    UUID b1 = sim.submit("bob", "b-1");
    sim.submit("bob", "b-2");
    UUID c1 = sim.submit("carol", "c-1");

    sim.pass();
    sim.complete(a1);
    sim.pass();
    sim.complete(b1);
    sim.pass();
    sim.complete(c1);
    sim.pass();
    // Alice's turn came again with nothing queued: she dropped out and Bob was served.
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob", "carol", "bob");
    assertThat(sim.plans.get(3).droppedOut()).containsExactly("alice");
  }

  @Test
  void anOwnerWithNothingAdmissibleDropsOutAndRejoinsAtTheTail() {
    SimulatedScheduler sim = new SimulatedScheduler(2);
    UUID a1 = sim.submit("alice", "a-1");
    sim.submit("alice", "a-1");
    UUID b1 = sim.submit("bob", "b-1");
    sim.submit("bob", "b-2");
    sim.submit("carol", "c-1");
    sim.submit("carol", "c-2");

    sim.pass();
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob");
    // Alice's second job waits behind her running head: nothing of hers is admissible.
    sim.complete(b1);
    sim.pass();
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob", "carol");
    assertThat(sim.rotation().owners()).containsExactly("alice", "bob", "carol");
    sim.complete(sim.admissions.get(2).jobId());
    sim.pass();
    assertThat(sim.plans.get(2).droppedOut()).containsExactly("alice");
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob", "carol", "bob");
    // Her head finishes; she has admissible work again and joins behind everyone else.
    sim.complete(a1);
    AdmissionPlan rejoined = sim.pass();
    assertThat(rejoined.joined()).containsExactly("alice");
    assertThat(sim.admittedOwners()).endsWith("carol");
    assertThat(sim.rotation().owners()).containsExactly("bob", "alice", "carol");
  }

  @Test
  void aNewOwnerJoinsTheTailOfTheRoundInProgress() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID a1 = sim.submit("alice", "a-1");
    sim.submit("alice", "a-2");
    sim.submit("bob", "b-1");
    sim.submit("bob", "b-2");
    sim.pass();
    sim.complete(a1);

    sim.submit("dave", "d-1");
    AdmissionPlan plan = sim.pass();
    assertThat(plan.joined()).containsExactly("dave");
    assertThat(sim.admittedOwners()).containsExactly("alice", "bob");
    assertThat(sim.rotation().owners()).containsExactly("alice", "dave", "bob");
  }

  @Test
  void spareCapacityGoesToAnyQueuedOwner() {
    SimulatedScheduler sim = new SimulatedScheduler(8);
    for (int i = 0; i < 10; i++) {
      sim.submit("alice", "a-" + i);
    }
    sim.submit("bob", "b-1");
    sim.pass();
    assertThat(sim.active()).isEqualTo(8);
    assertThat(sim.admittedOwners()).containsOnlyOnce("bob");
    assertThat(sim.admittedOwners().stream().filter("alice"::equals).count()).isEqualTo(7);
  }

  @Test
  void runningJobsAreNeverPreemptedWhenAnotherOwnerArrives() {
    SimulatedScheduler sim = new SimulatedScheduler(2);
    UUID a1 = sim.submit("alice", "a-1");
    UUID a2 = sim.submit("alice", "a-2");
    sim.pass();
    sim.submit("bob", "b-1");
    sim.pass();
    assertThat(sim.state(a1)).isEqualTo(JobState.RUNNING);
    assertThat(sim.state(a2)).isEqualTo(JobState.RUNNING);
    assertThat(sim.admittedOwners()).containsExactly("alice", "alice");
    sim.complete(a1);
    sim.pass();
    assertThat(sim.admittedOwners()).containsExactly("alice", "alice", "bob");
  }

  @Test
  void aFreedSlotGoesToTheOwnerHoldingFewestEvenWhenTheOtherOwnersQueuedJobIsOlder() {
    SimulatedScheduler sim = new SimulatedScheduler(8);
    List<UUID> alice = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      alice.add(sim.submit("alice", "a-" + i));
    }
    sim.pass();
    assertThat(sim.admittedOwners()).hasSize(8).containsOnly("alice");
    UUID bob = sim.submit("bob", "b-1");
    UUID bobLater = sim.submit("bob", "b-2");

    sim.cancel(alice.get(0));
    sim.pass();
    assertThat(sim.state(bob)).as("bob holds none, alice seven").isEqualTo(JobState.RUNNING);
    assertThat(sim.state(alice.get(8))).isEqualTo(JobState.QUEUED);

    // Alice 7, Bob 1: the next freed slot goes to Bob again, not to Alice's older job.
    sim.cancel(alice.get(1));
    sim.pass();
    assertThat(sim.state(bobLater)).isEqualTo(JobState.RUNNING);
    assertThat(sim.state(alice.get(8))).isEqualTo(JobState.QUEUED);
  }

  @Test
  void anOwnerAtTheCeilingIsPassedOverAndTheRestOfTheSlotsStayFreeForOthers() {
    SimulatedScheduler sim = new SimulatedScheduler(8, OwnerWeights.EQUAL, 3);
    for (int i = 0; i < 10; i++) {
      sim.submit("alice", "a-" + i);
    }
    sim.pass();
    assertThat(sim.active()).as("alice stops at her ceiling").isEqualTo(3);
    for (int i = 0; i < 5; i++) {
      sim.submit("bob", "b-" + i);
    }
    sim.pass();
    assertThat(sim.heldByOwner()).containsEntry("alice", 3).containsEntry("bob", 3);
  }

  @Test
  void aWeightedOwnerGetsAsManyAttemptsPerRoundAsItsWeight() {
    SimulatedScheduler sim = new SimulatedScheduler(6, new OwnerWeights(Map.of("alice", 2)));
    for (int i = 0; i < 6; i++) {
      sim.submit("alice", "a-" + i);
      sim.submit("bob", "b-" + i);
    }
    sim.pass();
    assertThat(sim.admittedOwners())
        .containsExactly("alice", "alice", "bob", "alice", "alice", "bob");
  }

  @Test
  void waitingForInputReleasesTheSlotButKeepsTheConversationHead() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID first = sim.submit("alice", "shared");
    UUID second = sim.submit("alice", "shared");
    UUID other = sim.submit("bob", "elsewhere");
    sim.pass();
    assertThat(sim.state(first)).isEqualTo(JobState.RUNNING);

    sim.askInput(first);
    sim.pass();
    assertThat(sim.state(first)).isEqualTo(JobState.WAITING_INPUT);
    assertThat(sim.state(other))
        .as("the freed slot went to other work")
        .isEqualTo(JobState.RUNNING);
    assertThat(sim.state(second))
        .as("the conversation's next job waits for the unanswered question")
        .isEqualTo(JobState.QUEUED);
    assertThat(sim.idleWhileAdmissible).isZero();
  }

  @Test
  void anAnswerWaitsForCapacityLikeNewWork() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID first = sim.submit("alice", "shared");
    UUID second = sim.submit("alice", "shared");
    UUID other = sim.submit("bob", "elsewhere");
    sim.pass();
    sim.askInput(first);
    sim.pass();

    sim.answer(first);
    sim.pass();
    assertThat(sim.state(first))
        .as("answered, but the only slot is busy")
        .isEqualTo(JobState.QUEUED);
    assertThat(sim.state(second)).isEqualTo(JobState.QUEUED);

    sim.complete(other);
    sim.pass();
    assertThat(sim.state(first)).isEqualTo(JobState.RUNNING);
    assertThat(sim.job(first).resume()).isTrue();
    assertThat(sim.state(second)).isEqualTo(JobState.QUEUED);
    sim.complete(first);
    sim.pass();
    assertThat(sim.state(second)).isEqualTo(JobState.RUNNING);
    assertThat(sim.fifoViolations).isZero();
  }

  @Test
  void cancellingAnUnstartedAnswerDoesNotAdmitItAndFreesTheConversation() {
    SimulatedScheduler sim = new SimulatedScheduler(1);
    UUID first = sim.submit("alice", "shared");
    UUID second = sim.submit("alice", "shared");
    UUID other = sim.submit("bob", "elsewhere");
    sim.pass();
    sim.askInput(first);
    sim.pass();
    sim.answer(first);

    sim.cancel(first);
    sim.complete(other);
    sim.pass();
    assertThat(sim.state(first)).isEqualTo(JobState.CANCELLED);
    assertThat(sim.job(first).admissions()).isEqualTo(1);
    assertThat(sim.state(second)).isEqualTo(JobState.RUNNING);
  }
}
