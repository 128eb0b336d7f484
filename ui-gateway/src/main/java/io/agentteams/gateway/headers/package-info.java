/**
 * What every response of the gateway says to browsers (security headers and the CORS policy), and
 * which proxies' forwarded headers it believes.
 */
@NullMarked
package io.agentteams.gateway.headers;

import org.jspecify.annotations.NullMarked;
