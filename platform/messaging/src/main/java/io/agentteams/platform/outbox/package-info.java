/**
 * The transactional outbox: rows written in the caller's transaction and a relay that publishes
 * them to Kafka.
 */
@NullMarked
package io.agentteams.platform.outbox;

import org.jspecify.annotations.NullMarked;
