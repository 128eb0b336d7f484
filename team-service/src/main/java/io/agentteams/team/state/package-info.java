/** The public state: revisioned, attributed entries the members of a team share. */
@NullMarked
package io.agentteams.team.state;

import org.jspecify.annotations.NullMarked;
