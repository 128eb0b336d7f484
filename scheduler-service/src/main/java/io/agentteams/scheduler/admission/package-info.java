/** Admission: a global bound on active jobs, served round-robin across owners. */
@NullMarked
package io.agentteams.scheduler.admission;

import org.jspecify.annotations.NullMarked;
