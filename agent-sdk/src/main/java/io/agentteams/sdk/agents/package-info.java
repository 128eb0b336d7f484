/** The owner's agent catalog: register, replace, read and search agents. */
@NullMarked
package io.agentteams.sdk.agents;

import org.jspecify.annotations.NullMarked;
