/**
 * The A2A runtime: admitted jobs of A2A 1.0 agents sent as messages in the member's context, their
 * tasks followed by stream, resubscription or polling, their states mapped to job states, and
 * outcomes that became unknown reconciled from the durable task record with GetTask.
 */
@NullMarked
package io.agentteams.scheduler.a2a;

import org.jspecify.annotations.NullMarked;
