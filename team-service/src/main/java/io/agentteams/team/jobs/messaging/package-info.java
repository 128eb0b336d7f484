/** Keeps the projection of unfinished jobs from the scheduler's events. */
@NullMarked
package io.agentteams.team.jobs.messaging;

import org.jspecify.annotations.NullMarked;
