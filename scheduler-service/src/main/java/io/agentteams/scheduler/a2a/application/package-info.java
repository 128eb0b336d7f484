/** Sends A2A agents' jobs, follows their tasks, and carries cancels over to the agents. */
@NullMarked
package io.agentteams.scheduler.a2a.application;

import org.jspecify.annotations.NullMarked;
