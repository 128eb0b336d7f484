package io.agentteams.agents.scripted;

import java.util.ArrayList;
import java.util.List;

/**
 * What one role does: the steps of a job that asks it for work (an owner's request or a hand-off),
 * and the steps of a receipt (the answer to a hand-off it made, in a later turn). A job resumed
 * after the owner's answer runs its steps again; they are idempotent, and the question step then
 * finds its answer.
 *
 * @param onWork the steps of a request or hand-off
 * @param onReceipt the steps of a receipt
 */
public record Script(List<Step> onWork, List<Step> onReceipt) {

  public Script {
    onWork = List.copyOf(onWork);
    onReceipt = List.copyOf(onReceipt);
  }

  /** The same script with {@code step} inserted into the work steps at {@code index}. */
  public Script withWorkStep(int index, Step step) {
    ArrayList<Step> steps = new ArrayList<>(onWork);
    steps.add(index, step);
    return new Script(steps, onReceipt);
  }
}
