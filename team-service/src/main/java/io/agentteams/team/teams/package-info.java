/** Teams: creating teams with their rosters, reading them, and their lifecycle. */
@NullMarked
package io.agentteams.team.teams;

import org.jspecify.annotations.NullMarked;
