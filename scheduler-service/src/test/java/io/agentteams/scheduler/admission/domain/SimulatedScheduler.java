package io.agentteams.scheduler.admission.domain;

import io.agentteams.scheduler.budget.domain.Usage;
import io.agentteams.scheduler.job.domain.Answer;
import io.agentteams.scheduler.job.domain.InputKind;
import io.agentteams.scheduler.job.domain.Job;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.domain.JobState;
import io.agentteams.scheduler.job.domain.MemberRef;
import io.agentteams.scheduler.job.domain.Question;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The scheduler's admission in memory: the domain {@link Job} state machine, {@link
 * ConversationHeads} and the {@link AdmissionPolicy}, driven by a {@link FakeClock}. Every pass
 * checks the invariants the real loop must keep and counts any breach.
 */
final class SimulatedScheduler {

  /** One admission as it happened. */
  record Admission(UUID jobId, String owner, String conversation, Duration waited, long pass) {}

  final FakeClock clock;
  final int slots;
  private final AdmissionPolicy policy;
  private Rotation rotation = Rotation.EMPTY;
  private final Map<UUID, Job> jobs = new LinkedHashMap<>();
  private final Map<UUID, Long> sequence = new HashMap<>();

  /** The creation order of the latest job admitted in each conversation. */
  private final Map<String, Long> latestAdmitted = new HashMap<>();

  /** Unfinished jobs per conversation, in creation order. */
  private final Map<String, List<Job>> byConversation = new LinkedHashMap<>();

  private long nextSequence;
  private long nextQueuePosition;
  private long passes;

  final List<Admission> admissions = new ArrayList<>();
  final List<AdmissionPlan> plans = new ArrayList<>();
  int maxActive;
  int fifoViolations;
  int idleWhileAdmissible;
  int doubleAdmissions;

  SimulatedScheduler(int slots, OwnerWeights weights) {
    this(slots, weights, 0);
  }

  SimulatedScheduler(int slots, OwnerWeights weights, int ownerCeiling) {
    this.clock = new FakeClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
    this.slots = slots;
    this.policy = new AdmissionPolicy(weights, ownerCeiling);
  }

  SimulatedScheduler(int slots) {
    this(slots, OwnerWeights.EQUAL);
  }

  /** Queues a job from {@code owner} to the conversation. */
  UUID submit(String owner, String conversation) {
    UUID id = UUID.randomUUID();
    UUID team = UUID.nameUUIDFromBytes(owner.getBytes(StandardCharsets.UTF_8));
    Job job =
        Job.create(
            JobSpec.ownerRequest(
                id,
                team,
                owner,
                new MemberRef("m-" + conversation, "agent-" + owner, conversation),
                "work " + nextSequence,
                id.toString(),
                clock.instant()),
            nextQueuePosition++);
    jobs.put(id, job);
    byConversation.computeIfAbsent(conversation, c -> new ArrayList<>()).add(job);
    sequence.put(id, nextSequence++);
    return id;
  }

  /**
   * Admissible jobs right now. Each conversation contributes its first two unfinished jobs, in no
   * particular order, so that the head rule is what decides.
   */
  List<Candidate> admissible() {
    List<UnfinishedJob> unfinished = new ArrayList<>();
    for (List<Job> conversation : byConversation.values()) {
      conversation.removeIf(job -> job.state().finished());
      for (int i = Math.min(conversation.size(), 2) - 1; i >= 0; i--) {
        Job job = conversation.get(i);
        unfinished.add(
            new UnfinishedJob(
                job.id(),
                job.spec().ownerId(),
                job.spec().teamId(),
                job.spec().target().conversationId(),
                sequence.get(job.id()),
                job.state() == JobState.QUEUED,
                job.queuePosition()));
      }
    }
    return ConversationHeads.admissible(unfinished);
  }

  /** Slots each owner holds now. */
  Map<String, Integer> heldByOwner() {
    Map<String, Integer> held = new HashMap<>();
    for (List<Job> conversation : byConversation.values()) {
      for (Job job : conversation) {
        if (job.state().holdsSlot()) {
          held.merge(job.spec().ownerId(), 1, Integer::sum);
        }
      }
    }
    return held;
  }

  int active() {
    int active = 0;
    for (List<Job> conversation : byConversation.values()) {
      for (Job job : conversation) {
        if (job.state().holdsSlot()) {
          active++;
        }
      }
    }
    return active;
  }

  /** One admission pass; the admitted jobs are offered and started at once. */
  AdmissionPlan pass() {
    passes++;
    int free = slots - active();
    AdmissionPlan plan = policy.plan(rotation, Math.max(free, 0), admissible(), heldByOwner());
    rotation = plan.rotation();
    for (Candidate candidate : plan.admitted()) {
      Job job = jobs.get(candidate.jobId());
      checkHeadOfConversation(job);
      if (job.admissions() > 0 && !job.resume()) {
        doubleAdmissions++;
      }
      job.admit("sim", clock.instant());
      String token = "lease-" + job.id() + "-" + job.offers();
      job.offer(token, clock.instant(), Duration.ofMinutes(5));
      job.start(token, null, clock.instant());
      admissions.add(
          new Admission(
              job.id(),
              candidate.ownerId(),
              candidate.conversationId(),
              Duration.between(job.queuedAt(), clock.instant()),
              passes));
    }
    plans.add(plan);
    maxActive = Math.max(maxActive, active());
    if (active() < slots && !admissible().isEmpty()) {
      idleWhileAdmissible++;
    }
    return plan;
  }

  private void checkHeadOfConversation(Job admitted) {
    long own = sequence.get(admitted.id());
    boolean outOfOrder = false;
    for (Job other : byConversation.get(admitted.spec().target().conversationId())) {
      long theirs = sequence.get(other.id());
      if (other != admitted && !other.state().finished() && theirs < own) {
        outOfOrder = true;
      }
    }
    // A later job of the conversation admitted earlier (it may have finished since) also breaks
    // the order.
    long latest = latestAdmitted.merge(admitted.spec().target().conversationId(), own, Math::max);
    if (latest > own) {
      outOfOrder = true;
    }
    if (outOfOrder) {
      fifoViolations++;
    }
  }

  void complete(UUID id) {
    Job job = jobs.get(id);
    job.complete(token(job), "done", 6000, Usage.NONE, null, clock.instant());
  }

  void askInput(UUID id) {
    Job job = jobs.get(id);
    job.requireInput(
        token(job), new Question(InputKind.CLARIFICATION, "which one?"), null, clock.instant());
  }

  void answer(UUID id) {
    jobs.get(id)
        .answer(
            new Answer(InputKind.CLARIFICATION, "the first"), nextQueuePosition++, clock.instant());
  }

  void cancel(UUID id) {
    jobs.get(id).cancel(clock.instant());
  }

  JobState state(UUID id) {
    return jobs.get(id).state();
  }

  Job job(UUID id) {
    return jobs.get(id);
  }

  Rotation rotation() {
    return rotation;
  }

  List<String> admittedOwners() {
    return admissions.stream().map(Admission::owner).toList();
  }

  private static String token(Job job) {
    return job.lease().token();
  }
}
