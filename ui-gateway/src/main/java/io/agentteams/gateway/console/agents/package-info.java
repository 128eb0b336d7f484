/** The owner's agent catalog: register and edit agents, mint worker tokens, see their workers. */
@NullMarked
package io.agentteams.gateway.console.agents;

import org.jspecify.annotations.NullMarked;
