/** Postgres storage of the ledger's balances, the jobs' holds and the budgets owners set. */
@NullMarked
package io.agentteams.scheduler.budget.persistence;

import org.jspecify.annotations.NullMarked;
