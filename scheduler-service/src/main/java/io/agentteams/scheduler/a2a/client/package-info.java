/** The A2A 1.0 JSON-RPC client, whose every call goes through the platform's outbound guard. */
@NullMarked
package io.agentteams.scheduler.a2a.client;

import org.jspecify.annotations.NullMarked;
