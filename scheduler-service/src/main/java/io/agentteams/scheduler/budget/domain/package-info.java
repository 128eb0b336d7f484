/** Budgets, balances and the reservation rules, in plain Java. */
@NullMarked
package io.agentteams.scheduler.budget.domain;

import org.jspecify.annotations.NullMarked;
