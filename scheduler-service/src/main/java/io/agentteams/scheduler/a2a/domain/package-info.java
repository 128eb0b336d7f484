/** A2A 1.0 as the runtime reads it: agent cards, task states and task snapshots, in plain Java. */
@NullMarked
package io.agentteams.scheduler.a2a.domain;

import org.jspecify.annotations.NullMarked;
