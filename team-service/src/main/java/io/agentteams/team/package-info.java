/**
 * team-service: agent catalog, teams, rosters and member bindings, the team lifecycle and the
 * public state.
 */
@NullMarked
package io.agentteams.team;

import org.jspecify.annotations.NullMarked;
