/** The durable record of every webhook push attempt. */
@NullMarked
package io.agentteams.scheduler.webhook.persistence;

import org.jspecify.annotations.NullMarked;
