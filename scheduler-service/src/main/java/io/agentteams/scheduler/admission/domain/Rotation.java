package io.agentteams.scheduler.admission.domain;

import java.util.List;
import java.util.Objects;

/**
 * The round-robin over owners, as it stands between admission passes: the owner whose turn it is
 * comes first, and {@code servedInTurn} admissions of that turn are already made. Persisting it is
 * what lets an unfinished round carry over to the next pass.
 *
 * @param owners owners in turn order; each appears once
 * @param servedInTurn admissions the first owner already had in its current turn
 */
public record Rotation(List<String> owners, int servedInTurn) {

  public static final Rotation EMPTY = new Rotation(List.of(), 0);

  public Rotation {
    owners = List.copyOf(owners);
    if (owners.stream().distinct().count() != owners.size()) {
      throw new IllegalArgumentException("an owner appears twice in the rotation: " + owners);
    }
    if (servedInTurn < 0 || (owners.isEmpty() && servedInTurn != 0)) {
      throw new IllegalArgumentException("served in turn must be >= 0 and 0 when empty");
    }
    Objects.requireNonNull(owners);
  }
}
