/** Learns how agents run, and their webhook secrets, from team-service's agent runtime events. */
@NullMarked
package io.agentteams.scheduler.runtime.messaging;

import org.jspecify.annotations.NullMarked;
