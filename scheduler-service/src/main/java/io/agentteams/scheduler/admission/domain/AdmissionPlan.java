package io.agentteams.scheduler.admission.domain;

import java.util.List;

/**
 * What one admission pass decided.
 *
 * @param admitted jobs to admit, in the order they were chosen
 * @param rotation the rotation to keep for the next pass
 * @param joined owners that joined the tail in this pass
 * @param droppedOut owners that left the rotation because nothing of theirs was admissible
 */
public record AdmissionPlan(
    List<Candidate> admitted, Rotation rotation, List<String> joined, List<String> droppedOut) {

  public AdmissionPlan {
    admitted = List.copyOf(admitted);
    joined = List.copyOf(joined);
    droppedOut = List.copyOf(droppedOut);
  }
}
