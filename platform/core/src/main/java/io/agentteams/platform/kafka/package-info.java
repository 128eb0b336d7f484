/** Kafka clients as the services create them beyond spring-kafka's own settings. */
@NullMarked
package io.agentteams.platform.kafka;

import org.jspecify.annotations.NullMarked;
