/** {@code /api/v1/workers} and {@code /api/v1/agents/{agentId}/worker}: presence for the owner. */
@NullMarked
package io.agentteams.scheduler.presence.web;

import org.jspecify.annotations.NullMarked;
