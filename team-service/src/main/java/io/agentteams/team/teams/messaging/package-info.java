/** What team-service learns about its teams from other services' events. */
@NullMarked
package io.agentteams.team.teams.messaging;

import org.jspecify.annotations.NullMarked;
