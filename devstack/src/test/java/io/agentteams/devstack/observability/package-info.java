/** What operators see of the running stack: traces across Kafka, metrics behind every dashboard. */
@NullMarked
package io.agentteams.devstack.observability;

import org.jspecify.annotations.NullMarked;
