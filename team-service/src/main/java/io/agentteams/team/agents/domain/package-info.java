/** The agent aggregate and its rules, in plain Java. */
@NullMarked
package io.agentteams.team.agents.domain;

import org.jspecify.annotations.NullMarked;
