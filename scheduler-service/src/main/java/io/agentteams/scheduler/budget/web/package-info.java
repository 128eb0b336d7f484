/** The budgets owners set and the spend they read, over HTTP. */
@NullMarked
package io.agentteams.scheduler.budget.web;

import org.jspecify.annotations.NullMarked;
