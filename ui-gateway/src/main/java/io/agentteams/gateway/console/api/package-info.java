/**
 * The console's client of the public API: every read and change goes through the gateway itself.
 */
@NullMarked
package io.agentteams.gateway.console.api;

import org.jspecify.annotations.NullMarked;
