/** Team runs: an objective planned by one member, dispatched to the team in rounds, synthesised. */
@NullMarked
package io.agentteams.scheduler.run;

import org.jspecify.annotations.NullMarked;
