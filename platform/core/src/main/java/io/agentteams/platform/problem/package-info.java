/**
 * Refusals as plain exceptions that name what was wrong: domain failures (no transport) and the
 * HTTP edge's own problems; the web layer renders both as Problem Details.
 */
@NullMarked
package io.agentteams.platform.problem;

import org.jspecify.annotations.NullMarked;
