/** Events published by team-service: lifecycle, roster and public state, keyed by team id. */
@NullMarked
package io.agentteams.contracts.team;

import org.jspecify.annotations.NullMarked;
