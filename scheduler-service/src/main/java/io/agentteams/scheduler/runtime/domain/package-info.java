/**
 * The runtime lifecycle's rules in plain Java: its bounds, how attempts are retried, how a runtime
 * is named, and the push agents the runtimes send to.
 */
@NullMarked
package io.agentteams.scheduler.runtime.domain;

import org.jspecify.annotations.NullMarked;
