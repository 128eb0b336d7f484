/** Use cases of the task board: who may act, in which transaction, with which events. */
@NullMarked
package io.agentteams.taskboard.task.application;

import org.jspecify.annotations.NullMarked;
