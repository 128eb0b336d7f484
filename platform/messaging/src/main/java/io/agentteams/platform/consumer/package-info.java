/**
 * The idempotent consumer: an event's effect and its processed mark commit together; poison events
 * go to a dead-letter topic.
 */
@NullMarked
package io.agentteams.platform.consumer;

import org.jspecify.annotations.NullMarked;
