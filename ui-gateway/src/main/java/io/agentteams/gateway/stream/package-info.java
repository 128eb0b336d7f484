/** Server-sent event streams of a team's events, served from this replica's own Kafka consumer. */
@NullMarked
package io.agentteams.gateway.stream;

import org.jspecify.annotations.NullMarked;
