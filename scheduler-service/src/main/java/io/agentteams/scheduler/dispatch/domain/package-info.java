/** Dispatch as plain Java: offers under a lease, and the reports any agent runtime sends back. */
@NullMarked
package io.agentteams.scheduler.dispatch.domain;

import org.jspecify.annotations.NullMarked;
