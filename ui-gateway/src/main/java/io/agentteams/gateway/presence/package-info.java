/** Whether an owner's agent has a worker connected, answered only for the owner's own agents. */
@NullMarked
package io.agentteams.gateway.presence;

import org.jspecify.annotations.NullMarked;
