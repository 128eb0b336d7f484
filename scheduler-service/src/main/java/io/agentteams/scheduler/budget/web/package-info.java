/** The budgets owners set and the spend they read, over HTTP. */
package io.agentteams.scheduler.budget.web;
