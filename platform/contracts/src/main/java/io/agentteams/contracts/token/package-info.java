/** Events about the tokens the gateway hands to owners' agents and members. */
@NullMarked
package io.agentteams.contracts.token;

import org.jspecify.annotations.NullMarked;
