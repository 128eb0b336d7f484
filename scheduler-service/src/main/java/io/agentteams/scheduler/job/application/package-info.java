/** Job use cases: accepting requests and hand-offs, owner commands, and applying transitions. */
@NullMarked
package io.agentteams.scheduler.job.application;

import org.jspecify.annotations.NullMarked;
