package io.agentteams.scheduler.job.application;

import io.agentteams.scheduler.budget.application.Spending;
import io.agentteams.scheduler.job.JobProperties;
import io.agentteams.scheduler.job.domain.JobLimits;
import io.agentteams.scheduler.job.domain.JobSpec;
import io.agentteams.scheduler.job.persistence.QuotaStore;
import java.util.List;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The limits a submission must be within, checked under the team's quota lock: the team's and the
 * chain's request limits, the budgets its jobs would count against, and a chain's hop budget.
 */
@Component
class RequestLimits {

  private final QuotaStore quotas;
  private final Spending spending;
  private final JobLimits limits;

  RequestLimits(QuotaStore quotas, Spending spending, JobProperties properties) {
    this.quotas = quotas;
    this.spending = spending;
    this.limits = properties.limits();
  }

  /** The team's request limit, and the budgets the new jobs would count against. */
  Mono<Void> ofOwnerRequest(QuotaStore.TeamQuota quota, Submission submission) {
    limits.checkTeamRequests(quota.requests(), submission.specs().size());
    return spending.checkNew(
        submission.ownerId(),
        submission.teamId(),
        submission.specs().stream().map(spec -> spec.target().name()).toList(),
        null,
        null,
        submission.now());
  }

  /**
   * The team's request limit, the chain's, the budgets the hand-off would count against, and the
   * chain's hop budget (the hop is counted here, under the team's quota lock).
   */
  Mono<Void> ofHandOff(QuotaStore.TeamQuota quota, Submission submission) {
    JobSpec spec = submission.specs().get(0);
    limits.checkTeamRequests(quota.requests(), 1);
    return quotas
        .chain(spec.chainId())
        .flatMap(
            chain -> {
              limits.checkChainRequests(chain.requests());
              return spending
                  .checkNew(
                      spec.ownerId(),
                      spec.teamId(),
                      List.of(spec.target().name()),
                      spec.chainId(),
                      null,
                      submission.now())
                  .then(spending.hop(spec.chainId(), spec.teamId()));
            });
  }
}
