/** The task board's rules in plain Java: tasks, their derived status, the DAG, claims, scopes. */
@NullMarked
package io.agentteams.taskboard.task.domain;

import org.jspecify.annotations.NullMarked;
