/** The task board follows team runs from the scheduler's topic: their plans and their progress. */
@NullMarked
package io.agentteams.taskboard.plan.messaging;

import org.jspecify.annotations.NullMarked;
