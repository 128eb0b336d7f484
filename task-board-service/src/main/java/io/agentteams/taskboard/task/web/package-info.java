/** {@code /api/v1/teams/{teamId}/tasks}: the task board's HTTP API. */
@NullMarked
package io.agentteams.taskboard.task.web;

import org.jspecify.annotations.NullMarked;
