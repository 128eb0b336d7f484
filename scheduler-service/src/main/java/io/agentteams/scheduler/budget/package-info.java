/**
 * The budget ledger: usage reserved and spent per owner, team, member, run and chain, and budgets.
 */
@NullMarked
package io.agentteams.scheduler.budget;

import org.jspecify.annotations.NullMarked;
