/**
 * Dispatch: admitted jobs go to agent runtimes as leased offers through a runtime-neutral port;
 * leases that lapse make a job's outcome unknown until it is reconciled.
 */
@NullMarked
package io.agentteams.scheduler.dispatch;

import org.jspecify.annotations.NullMarked;
