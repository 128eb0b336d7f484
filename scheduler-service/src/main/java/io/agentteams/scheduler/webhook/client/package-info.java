/**
 * The webhook runtime's wire: posts a job to an agent's endpoint, signed, through the outbound
 * guard, and reads the answer into a push result the dispatcher acts on.
 */
@NullMarked
package io.agentteams.scheduler.webhook.client;

import org.jspecify.annotations.NullMarked;
