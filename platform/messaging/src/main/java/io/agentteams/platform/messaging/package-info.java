/** Spring Boot auto-configuration of the outbox, its relay, the consumers and housekeeping. */
@NullMarked
package io.agentteams.platform.messaging;

import org.jspecify.annotations.NullMarked;
