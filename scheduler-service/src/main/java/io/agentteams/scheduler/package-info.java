/**
 * scheduler-service: jobs, chains and budgets, admission slots, owner rotation, conversation queues
 * and agent dispatch.
 */
@NullMarked
package io.agentteams.scheduler;

import org.jspecify.annotations.NullMarked;
