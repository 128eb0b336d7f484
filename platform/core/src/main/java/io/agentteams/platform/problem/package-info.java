/**
 * Errors as plain exceptions that name what was wrong; the web layer renders them as Problem
 * Details.
 */
@NullMarked
package io.agentteams.platform.problem;

import org.jspecify.annotations.NullMarked;
