/** A push-notification config of a team agent's task, in plain Java. */
@NullMarked
package io.agentteams.scheduler.teamagent.domain;

import org.jspecify.annotations.NullMarked;
