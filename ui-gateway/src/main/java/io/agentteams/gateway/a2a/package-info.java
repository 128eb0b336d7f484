/**
 * Each team as an A2A 1.0 agent: its agent card and the JSON-RPC binding, translated into the
 * public API (owner requests to the lead, jobs as tasks) and the team's event feed.
 */
@NullMarked
package io.agentteams.gateway.a2a;

import org.jspecify.annotations.NullMarked;
