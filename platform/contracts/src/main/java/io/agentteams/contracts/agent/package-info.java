/** Events about agents in an owner's catalog that the services dispatching to them must know. */
@NullMarked
package io.agentteams.contracts.agent;

import org.jspecify.annotations.NullMarked;
