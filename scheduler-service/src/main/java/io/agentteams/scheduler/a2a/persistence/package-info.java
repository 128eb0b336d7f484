/** The durable record of each job's A2A message and task. */
@NullMarked
package io.agentteams.scheduler.a2a.persistence;

import org.jspecify.annotations.NullMarked;
