/**
 * Jobs as plain Java: their states and transitions, leases and fencing, answers, results, receipts,
 * and the chain, team and budget limits they keep within.
 */
@NullMarked
package io.agentteams.scheduler.job.domain;

import org.jspecify.annotations.NullMarked;
