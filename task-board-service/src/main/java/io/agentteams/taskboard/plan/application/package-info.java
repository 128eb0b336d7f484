/** Importing plans onto a board and approving them. */
@NullMarked
package io.agentteams.taskboard.plan.application;

import org.jspecify.annotations.NullMarked;
