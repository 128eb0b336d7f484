/**
 * Events published by task-board-service on {@code agentteams.taskboard.events}, keyed by team id;
 * the envelope's sequence is the task's revision after the change (the plan's for plan events).
 */
@NullMarked
package io.agentteams.contracts.taskboard;

import org.jspecify.annotations.NullMarked;
