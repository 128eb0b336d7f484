/** The owner's agent catalog: register and edit agents and mint worker tokens. */
@NullMarked
package io.agentteams.gateway.console.agents;

import org.jspecify.annotations.NullMarked;
