/** Keeps the presence of this replica's open streams and answers who is connected. */
@NullMarked
package io.agentteams.scheduler.presence.application;

import org.jspecify.annotations.NullMarked;
