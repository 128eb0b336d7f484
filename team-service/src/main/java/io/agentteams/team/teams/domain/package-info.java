/** The team aggregate and its rules, in plain Java. */
@NullMarked
package io.agentteams.team.teams.domain;

import org.jspecify.annotations.NullMarked;
