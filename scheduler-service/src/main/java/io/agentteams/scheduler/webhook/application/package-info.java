/**
 * The webhook runtime as an adapter of the shared lifecycle: pushes claimed jobs (through {@code
 * webhook.client}) and acts on the answers.
 */
@NullMarked
package io.agentteams.scheduler.webhook.application;

import org.jspecify.annotations.NullMarked;
