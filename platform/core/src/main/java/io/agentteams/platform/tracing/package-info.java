/**
 * Traces that cross Kafka: the context stored with an outbox row, the relay's publish span and the
 * record headers it writes, the consuming side's spans.
 */
@NullMarked
package io.agentteams.platform.tracing;

import org.jspecify.annotations.NullMarked;
