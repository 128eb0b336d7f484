/**
 * The team console: server-rendered pages for the people who own teams and for operators, served
 * from the gateway's own origin, reading and changing everything through the public API.
 */
@NullMarked
package io.agentteams.gateway.console;

import org.jspecify.annotations.NullMarked;
