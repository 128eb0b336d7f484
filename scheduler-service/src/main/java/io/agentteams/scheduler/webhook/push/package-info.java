/**
 * Claims webhook agents' jobs and pushes them (through {@code webhook.client}), acting on the
 * answers.
 */
@NullMarked
package io.agentteams.scheduler.webhook.push;

import org.jspecify.annotations.NullMarked;
