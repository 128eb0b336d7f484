package io.agentteams.scheduler.budget.domain;

import java.util.Objects;
import java.util.UUID;

/**
 * What one of an owner's teams spent in all, as the ledger sums it.
 *
 * @param teamId the team
 * @param tokens all tokens its settled jobs used
 * @param cost their cost, in micro-units of the owner's currency
 * @param jobs how many jobs settled on it
 */
public record TeamTotal(UUID teamId, long tokens, long cost, long jobs) {

  public TeamTotal {
    Objects.requireNonNull(teamId, "team id");
  }
}
