package io.agentteams.scheduler.admission.domain;

import java.util.Collection;

/** Jain's fairness index: 1 when every share is equal, 1/n when one party gets everything. */
public final class Fairness {

  private Fairness() {}

  /** The index of the shares; 1 for no or a single share. */
  public static double jain(Collection<Double> shares) {
    if (shares.size() <= 1) {
      return 1.0;
    }
    double sum = 0;
    double squares = 0;
    for (double share : shares) {
      sum += share;
      squares += share * share;
    }
    return squares == 0 ? 1.0 : (sum * sum) / (shares.size() * squares);
  }
}
