/** The gateway's MCP endpoint judged by the official MCP Java SDK client. */
@NullMarked
package io.agentteams.devstack.mcp;

import org.jspecify.annotations.NullMarked;
