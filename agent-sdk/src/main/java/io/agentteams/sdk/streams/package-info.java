/**
 * Server-sent event streams: a team's activity, a member's events, and waiting for the next change.
 */
@NullMarked
package io.agentteams.sdk.streams;

import org.jspecify.annotations.NullMarked;
