/** Stores boards and tasks in Postgres; every task write is a compare-and-set on its revision. */
@NullMarked
package io.agentteams.taskboard.task.persistence;

import org.jspecify.annotations.NullMarked;
