/** Use cases over teams: each runs in one transaction with its outbox events. */
@NullMarked
package io.agentteams.team.teams.application;

import org.jspecify.annotations.NullMarked;
