/** Runs, their tasks, the jobs they dispatched and their timelines in the scheduler's database. */
@NullMarked
package io.agentteams.scheduler.run.persistence;

import org.jspecify.annotations.NullMarked;
