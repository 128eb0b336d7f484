/**
 * The A2A runtime: admitted jobs of A2A 1.0 agents sent as messages in the member's context, their
 * tasks followed by stream, resubscription or polling, their states mapped to job states, and
 * outcomes that became unknown reconciled from the durable task record with GetTask. It is an
 * adapter of the shared runtime lifecycle ({@code runtime}); the team as an A2A agent, which
 * outside clients call, is another capability ({@code teamagent}).
 */
@NullMarked
package io.agentteams.scheduler.a2a;

import org.jspecify.annotations.NullMarked;
