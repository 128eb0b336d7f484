/** Issued tokens and the registry's named refusals, in plain Java. */
@NullMarked
package io.agentteams.team.tokens.domain;

import org.jspecify.annotations.NullMarked;
