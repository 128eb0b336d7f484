/** Claims webhook agents' jobs and pushes them over HTTP through the outbound guard. */
@NullMarked
package io.agentteams.scheduler.webhook.push;

import org.jspecify.annotations.NullMarked;
