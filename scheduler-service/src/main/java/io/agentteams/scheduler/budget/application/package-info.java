/**
 * Reserving, growing and settling jobs' usage against budgets, and checking new work against them.
 */
@NullMarked
package io.agentteams.scheduler.budget.application;

import org.jspecify.annotations.NullMarked;
