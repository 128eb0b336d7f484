/** The token registry: the tokens handed to owners' agents and members, listed and revoked. */
@NullMarked
package io.agentteams.team.tokens;

import org.jspecify.annotations.NullMarked;
