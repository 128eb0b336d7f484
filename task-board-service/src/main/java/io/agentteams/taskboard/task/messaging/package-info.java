/** Turns what happened on a board into task events and writes them to the outbox. */
@NullMarked
package io.agentteams.taskboard.task.messaging;

import org.jspecify.annotations.NullMarked;
