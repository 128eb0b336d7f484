/** Events published by scheduler-service that other services rely on. */
@NullMarked
package io.agentteams.contracts.scheduler;

import org.jspecify.annotations.NullMarked;
