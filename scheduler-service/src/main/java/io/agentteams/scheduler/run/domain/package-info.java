/**
 * Team runs as plain Java: the plan and its checks, the run's states, its rounds of ready tasks,
 * failures and blocking, synthesis, and the inputs its jobs are given.
 */
@NullMarked
package io.agentteams.scheduler.run.domain;

import org.jspecify.annotations.NullMarked;
