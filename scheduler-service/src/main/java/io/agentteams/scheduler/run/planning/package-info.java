/** Reading a planner's answer, as messy as planners write it, into a plan. */
@NullMarked
package io.agentteams.scheduler.run.planning;

import org.jspecify.annotations.NullMarked;
