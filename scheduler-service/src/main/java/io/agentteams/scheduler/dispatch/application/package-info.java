/** The dispatch port and its pull runtime, and the sweeper that keeps leases honest. */
@NullMarked
package io.agentteams.scheduler.dispatch.application;

import org.jspecify.annotations.NullMarked;
