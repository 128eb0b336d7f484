/** Events published by team-service. */
@NullMarked
package io.agentteams.contracts.team;

import org.jspecify.annotations.NullMarked;
