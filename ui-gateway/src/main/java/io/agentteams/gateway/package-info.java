/**
 * ui-gateway: the one public entry point. It authenticates callers, routes the public API to the
 * services, serves SSE streams and the web UI.
 */
@NullMarked
package io.agentteams.gateway;

import org.jspecify.annotations.NullMarked;
