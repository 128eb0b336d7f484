/** task-board-service: tasks, dependencies, claims, heartbeats, tombstones and plans. */
@NullMarked
package io.agentteams.taskboard;

import org.jspecify.annotations.NullMarked;
