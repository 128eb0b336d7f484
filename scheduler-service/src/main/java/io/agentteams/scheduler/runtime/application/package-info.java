/**
 * The leased-dispatch lifecycle of the push runtimes, once: {@link
 * io.agentteams.scheduler.runtime.application.RuntimeDispatcher} claims, bounds and follows, and
 * each runtime plugs in as a {@link io.agentteams.scheduler.runtime.application.RuntimeAdapter}.
 */
@NullMarked
package io.agentteams.scheduler.runtime.application;

import org.jspecify.annotations.NullMarked;
