/** Tasks of a team's board: dependencies, claims with heartbeats, write scopes and tombstones. */
@NullMarked
package io.agentteams.taskboard.task;

import org.jspecify.annotations.NullMarked;
