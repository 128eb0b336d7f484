/**
 * WebFlux adapters shared by every service: Problem Details, the verified caller, trace context.
 */
@NullMarked
package io.agentteams.platform.web;

import org.jspecify.annotations.NullMarked;
