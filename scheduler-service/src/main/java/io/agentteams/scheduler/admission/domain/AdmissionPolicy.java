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
 * Decides which queued jobs take the free slots: max-min fair across owners, then round-robin.
 *
 * <ul>
 *   <li>Each free slot goes to the owner holding the fewest slots (counting those this pass
 *       admits), measured in whole rounds of its weight: an owner with weight 3 holding 2 slots
 *       counts as holding none. So a freed slot goes to the owner that holds least, never to the
 *       owner already holding most because its queued job is older.
 *   <li>Among owners holding equally, the rotation decides, one admission attempt per owner per
 *       round (more for owners with a weight), each owner's admissible jobs in queue order.
 *   <li>An unfinished round carries over: the rotation is kept between passes, so the owner whose
 *       turn was next when slots ran out is served first when one frees.
 *   <li>Owners with nothing admissible drop out when their turn comes; owners that have admissible
 *       work and are not in the rotation join its tail, oldest work first.
 *   <li>An owner at the optional ceiling is passed over (it keeps its place); below the ceiling
 *       spare capacity goes to any queued owner: an owner alone in the rotation gets every free
 *       slot.
 *   <li>Nothing is pre-empted: the policy only fills free slots.
 * </ul>
 *
 * <p>The policy is a pure function of the rotation, the free slots, the slots each owner holds and
 * the candidates, so that the database-backed admission loop and the deterministic simulation apply
 * exactly the same rules.
 */
public final class AdmissionPolicy {

  private final OwnerWeights weights;
  private final int ownerCeiling;

  /** Without a ceiling on the slots one owner may hold. */
  public AdmissionPolicy(OwnerWeights weights) {
    this(weights, 0);
  }

  /**
   * @param ownerCeiling the most slots one owner may hold at once; 0 for no ceiling
   */
  public AdmissionPolicy(OwnerWeights weights, int ownerCeiling) {
    if (ownerCeiling < 0) {
      throw new IllegalArgumentException("the owner ceiling must be >= 0 (0 for none)");
    }
    this.weights = Objects.requireNonNull(weights);
    this.ownerCeiling = ownerCeiling;
  }

  /**
   * One pass.
   *
   * @param rotation the rotation left by the previous pass
   * @param freeSlots slots that may be filled now
   * @param candidates admissible jobs (conversation heads in state queued), any order
   * @param held slots each owner holds now; an owner not named holds none
   */
  public AdmissionPlan plan(
      Rotation rotation,
      int freeSlots,
      Collection<Candidate> candidates,
      Map<String, Integer> held) {
    Map<String, Deque<Candidate>> queues = byOwner(candidates);
    Map<String, Integer> holding = new HashMap<>(held);
    List<String> order = new ArrayList<>(rotation.owners());
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
              order.add(entry.getKey());
              joined.add(entry.getKey());
            });

    List<Candidate> admitted = new ArrayList<>();
    List<String> droppedOut = new ArrayList<>();
    int free = freeSlots;
    while (free > 0 && !order.isEmpty()) {
      String head = order.get(0);
      Deque<Candidate> headQueue = queues.get(head);
      if (headQueue == null || headQueue.isEmpty()) {
        order.remove(0);
        droppedOut.add(head);
        served = 0;
        continue;
      }
      int chosen = fewestHeld(order, queues, holding);
      if (chosen < 0) {
        break;
      }
      String owner = order.get(chosen);
      admitted.add(queues.get(owner).removeFirst());
      holding.merge(owner, 1, Integer::sum);
      free--;
      if (chosen == 0) {
        served++;
        if (served >= weights.of(owner)) {
          order.add(order.remove(0));
          served = 0;
        }
      } else {
        // Served out of turn because it held less: its turn of this round is spent.
        order.add(order.remove(chosen));
      }
    }
    return new AdmissionPlan(
        admitted,
        new Rotation(List.copyOf(order), order.isEmpty() ? 0 : served),
        joined,
        droppedOut);
  }

  /**
   * The position in the rotation of the owner with admissible work, below the ceiling, that holds
   * the fewest whole rounds of slots; the earliest in the rotation among equals; -1 for none.
   */
  private int fewestHeld(
      List<String> order, Map<String, Deque<Candidate>> queues, Map<String, Integer> holding) {
    int best = -1;
    int bestRounds = Integer.MAX_VALUE;
    for (int i = 0; i < order.size(); i++) {
      String owner = order.get(i);
      Deque<Candidate> queue = queues.get(owner);
      int holds = holding.getOrDefault(owner, 0);
      if (queue == null || queue.isEmpty() || (ownerCeiling > 0 && holds >= ownerCeiling)) {
        continue;
      }
      int rounds = holds / weights.of(owner);
      if (rounds < bestRounds) {
        best = i;
        bestRounds = rounds;
      }
    }
    return best;
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
