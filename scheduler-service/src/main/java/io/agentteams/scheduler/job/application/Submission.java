package io.agentteams.scheduler.job.application;

import io.agentteams.scheduler.budget.domain.Budget;
import io.agentteams.scheduler.job.domain.IfBusy;
import io.agentteams.scheduler.job.domain.JobSpec;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A submission as decided before the team's quota is locked: the jobs it creates unless its
 * idempotency key already created them.
 *
 * @param scope whose keys the idempotency key is one of (the owner's, or a member's)
 * @param fingerprint the request's body, to tell a retry from a reused key
 * @param chainBudget the budget of each chain the submission starts
 * @param interrupter who asked, named in the reason of each head it interrupts
 */
record Submission(
    UUID teamId,
    String ownerId,
    String scope,
    String key,
    String fingerprint,
    List<JobSpec> specs,
    Budget chainBudget,
    IfBusy ifBusy,
    String interrupter,
    Instant now) {}
