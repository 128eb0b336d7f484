/** Registering, updating, finding and searching agents of an owner. */
@NullMarked
package io.agentteams.team.agents.application;

import org.jspecify.annotations.NullMarked;
