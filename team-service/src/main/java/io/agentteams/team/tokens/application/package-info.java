/** Records, lists and revokes issued tokens, publishing each revocation through the outbox. */
@NullMarked
package io.agentteams.team.tokens.application;

import org.jspecify.annotations.NullMarked;
