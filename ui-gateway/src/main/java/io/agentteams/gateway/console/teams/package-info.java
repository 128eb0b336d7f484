/** The owner's teams: the list with its limit, and creating a team from the agent catalog. */
@NullMarked
package io.agentteams.gateway.console.teams;

import org.jspecify.annotations.NullMarked;
