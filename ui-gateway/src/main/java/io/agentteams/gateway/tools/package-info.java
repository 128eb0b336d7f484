/** The member tools: what an agent may call, with the JSON Schemas of its input and result. */
@NullMarked
package io.agentteams.gateway.tools;

import org.jspecify.annotations.NullMarked;
