/** Stores plans in Postgres. */
@NullMarked
package io.agentteams.taskboard.plan.persistence;

import org.jspecify.annotations.NullMarked;
