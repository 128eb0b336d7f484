/** Sends A2A agents' jobs, follows their tasks, and carries cancels over to the agents. */
@NullMarked
package io.agentteams.scheduler.a2a.runtime;

import org.jspecify.annotations.NullMarked;
