/** Stores the issued-token registry in Postgres. */
@NullMarked
package io.agentteams.team.tokens.persistence;

import org.jspecify.annotations.NullMarked;
