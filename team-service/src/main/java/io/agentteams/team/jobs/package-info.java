/** What team-service knows of the scheduler's jobs: which teams still have unfinished work. */
@NullMarked
package io.agentteams.team.jobs;

import org.jspecify.annotations.NullMarked;
