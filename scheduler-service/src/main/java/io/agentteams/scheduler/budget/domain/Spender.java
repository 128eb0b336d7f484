package io.agentteams.scheduler.budget.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One job as the ledger sees it: whose budgets it counts against and what it has used. The ledger
 * knows no more of jobs than this, so the job capability calls the ledger and never the reverse.
 *
 * @param jobId the job
 * @param ownerId the owner it counts against
 * @param teamId the team it counts against
 * @param member the member that runs it
 * @param chainId the chain of hand-offs it belongs to
 * @param receipt whether it returns an answer already paid for (a finished hand-off's receipt)
 * @param admissions how often it was admitted
 * @param usage what it has used so far
 */
public record Spender(
    UUID jobId,
    String ownerId,
    UUID teamId,
    String member,
    UUID chainId,
    boolean receipt,
    int admissions,
    Usage usage) {

  /** The scopes the job counts against: owner, team, member, chain and, in a run, the run. */
  public List<Scope> scopes(@Nullable UUID runId) {
    List<Scope> scopes = new ArrayList<>(5);
    scopes.add(Scope.owner(ownerId));
    scopes.add(Scope.team(teamId));
    scopes.add(Scope.member(teamId, member));
    scopes.add(Scope.chain(chainId));
    if (runId != null) {
      scopes.add(Scope.run(runId));
    }
    return scopes;
  }
}
