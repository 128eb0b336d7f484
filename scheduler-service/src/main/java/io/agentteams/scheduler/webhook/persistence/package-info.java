/** Webhook agents as the scheduler knows them, and the durable record of every push attempt. */
@NullMarked
package io.agentteams.scheduler.webhook.persistence;

import org.jspecify.annotations.NullMarked;
