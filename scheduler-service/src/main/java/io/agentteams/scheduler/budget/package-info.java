/**
 * The budget ledger: usage reserved and spent per owner, team, member, run and chain, and budgets.
 */
package io.agentteams.scheduler.budget;
