/** The agent catalog: agents an owner registers and binds team members to. */
@NullMarked
package io.agentteams.team.agents;

import org.jspecify.annotations.NullMarked;
