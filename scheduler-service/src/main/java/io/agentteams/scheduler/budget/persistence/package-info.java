/** Postgres storage of the ledger's balances, the jobs' holds and the budgets owners set. */
package io.agentteams.scheduler.budget.persistence;
