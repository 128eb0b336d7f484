/** The push-notification configs of the team agent's tasks, and what is owed to each. */
@NullMarked
package io.agentteams.scheduler.teamagent.persistence;

import org.jspecify.annotations.NullMarked;
