package io.agentteams.scheduler.admission.domain;

import java.util.Map;

/**
 * Admission attempts per round for each owner: 1 unless configured otherwise. An owner with weight
 * 3 may be admitted up to three jobs in a row each time its turn comes.
 */
public final class OwnerWeights {

  public static final OwnerWeights EQUAL = new OwnerWeights(Map.of());

  private final Map<String, Integer> weights;

  public OwnerWeights(Map<String, Integer> weights) {
    weights.forEach(
        (owner, weight) -> {
          if (weight == null || weight < 1) {
            throw new IllegalArgumentException("the weight of " + owner + " must be >= 1");
          }
        });
    this.weights = Map.copyOf(weights);
  }

  public int of(String owner) {
    return weights.getOrDefault(owner, 1);
  }
}
