/**
 * The webhook runtime: admitted jobs of webhook agents pushed to their endpoints as signed Standard
 * Webhooks requests, answered in the response or later under the lease, retried with back-off, and
 * reconciled when their outcome is unknown: an adapter of the shared runtime lifecycle ({@code
 * runtime}).
 */
@NullMarked
package io.agentteams.scheduler.webhook;

import org.jspecify.annotations.NullMarked;
