/** Tokens an owner mints for its agents' workers and for members. */
@NullMarked
package io.agentteams.sdk.tokens;

import org.jspecify.annotations.NullMarked;
