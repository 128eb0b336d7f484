package io.agentteams.scheduler.admission.domain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides which queued jobs take the free slots: owners are served round-robin, one admission
 * attempt per owner per round (more for owners with a weight), each owner's admissible jobs in
 * queue order.
 *
 * <ul>
 *   <li>An unfinished round carries over: the rotation is kept between passes, so the owner whose
 *       turn was next when slots ran out is served first when one frees.
 *   <li>Owners with nothing admissible drop out when their turn comes; owners that have admissible
 *       work and are not in the rotation join its tail, oldest work first.
 *   <li>Spare capacity goes to any queued owner: an owner alone in the rotation gets every free
 *       slot, one round at a time.
 *   <li>Nothing is pre-empted: the policy only fills free slots.
 * </ul>
 *
 * <p>The policy is a pure function of the rotation, the free slots and the candidates, so that the
 * database-backed admission loop and the deterministic simulation apply exactly the same rules.
 */
public final class AdmissionPolicy {

  private final OwnerWeights weights;

  public AdmissionPolicy(OwnerWeights weights) {
    this.weights = Objects.requireNonNull(weights);
  }

  /**
   * One pass.
   *
   * @param rotation the rotation left by the previous pass
   * @param freeSlots slots that may be filled now
   * @param candidates admissible jobs (conversation heads in state queued), any order
   */
  public AdmissionPlan plan(Rotation rotation, int freeSlots, Collection<Candidate> candidates) {
    Map<String, Deque<Candidate>> queues = byOwner(candidates);
    Deque<String> order = new ArrayDeque<>(rotation.owners());
    int served = rotation.servedInTurn();

    List<String> joined = new ArrayList<>();
    Set<String> present = new HashSet<>(order);
    queues.entrySet().stream()
        .filter(entry -> !present.contains(entry.getKey()))
        .sorted(
            Comparator.comparingLong(
                    (Map.Entry<String, Deque<Candidate>> entry) ->
                        entry.getValue().peekFirst().queuePosition())
                .thenComparing(Map.Entry::getKey))
        .forEach(
            entry -> {
              order.addLast(entry.getKey());
              joined.add(entry.getKey());
            });

    List<Candidate> admitted = new ArrayList<>();
    List<String> droppedOut = new ArrayList<>();
    int free = freeSlots;
    while (free > 0 && !order.isEmpty()) {
      String owner = order.peekFirst();
      Deque<Candidate> queue = queues.get(owner);
      if (queue == null || queue.isEmpty()) {
        order.removeFirst();
        droppedOut.add(owner);
        served = 0;
        continue;
      }
      admitted.add(queue.removeFirst());
      free--;
      served++;
      if (served >= weights.of(owner)) {
        order.addLast(order.removeFirst());
        served = 0;
      }
    }
    return new AdmissionPlan(
        admitted,
        new Rotation(List.copyOf(order), order.isEmpty() ? 0 : served),
        joined,
        droppedOut);
  }

  private static Map<String, Deque<Candidate>> byOwner(Collection<Candidate> candidates) {
    Map<String, List<Candidate>> lists = new HashMap<>();
    Set<String> conversations = new HashSet<>();
    for (Candidate candidate : candidates) {
      if (!conversations.add(candidate.conversationId())) {
        throw new IllegalArgumentException(
            "two candidates share conversation "
                + candidate.conversationId()
                + "; only its head may be admitted");
      }
      lists.computeIfAbsent(candidate.ownerId(), owner -> new ArrayList<>()).add(candidate);
    }
    Map<String, Deque<Candidate>> queues = new HashMap<>();
    lists.forEach(
        (owner, list) -> {
          list.sort(Comparator.comparingLong(Candidate::queuePosition));
          queues.put(owner, new ArrayDeque<>(list));
        });
    return queues;
  }
}
