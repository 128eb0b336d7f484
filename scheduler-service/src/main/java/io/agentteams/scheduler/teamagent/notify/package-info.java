/** Pushes a task's state changes to its A2A push-notification configs, signed and guarded. */
@NullMarked
package io.agentteams.scheduler.teamagent.notify;

import org.jspecify.annotations.NullMarked;
