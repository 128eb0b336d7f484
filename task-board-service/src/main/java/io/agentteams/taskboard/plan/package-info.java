/**
 * Plans: lists of tasks with ids and dependencies imported atomically, optionally held for
 * approval.
 */
@NullMarked
package io.agentteams.taskboard.plan;

import org.jspecify.annotations.NullMarked;
