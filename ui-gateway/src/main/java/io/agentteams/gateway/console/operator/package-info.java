/**
 * The operator page: admission slots against the bound, queued jobs per owner, jobs waiting for
 * input, the oldest queued job, each service's outbox backlog and consumer lag.
 */
@NullMarked
package io.agentteams.gateway.console.operator;

import org.jspecify.annotations.NullMarked;
