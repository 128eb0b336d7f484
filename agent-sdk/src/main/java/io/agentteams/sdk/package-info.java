/**
 * The Agent Teams client: {@link io.agentteams.sdk.AgentTeamsClient} for every public operation,
 * member tools bound to a member token, and an agent worker that runs jobs from its agent's stream.
 */
@NullMarked
package io.agentteams.sdk;

import org.jspecify.annotations.NullMarked;
