/** Publishing, reading and updating public state entries, each change with its event. */
@NullMarked
package io.agentteams.team.state.application;

import org.jspecify.annotations.NullMarked;
