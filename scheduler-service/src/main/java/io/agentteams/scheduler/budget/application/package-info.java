/**
 * Reserving, growing and settling jobs' usage against budgets, and checking new work against them.
 */
package io.agentteams.scheduler.budget.application;
