/**
 * A team's task board: tasks with dependencies, claims, heartbeats and compare-and-set revisions,
 * and plans imported in one piece.
 */
@NullMarked
package io.agentteams.sdk.tasks;

import org.jspecify.annotations.NullMarked;
