/** The agent catalog REST API. */
@NullMarked
package io.agentteams.team.agents.web;

import org.jspecify.annotations.NullMarked;
