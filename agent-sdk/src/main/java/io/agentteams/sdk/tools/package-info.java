/**
 * The member tools: what an agent does as one member of one team, as typed calls bound to a member
 * token, and by name with JSON arguments as {@code GET /api/v1/tools} describes them.
 */
@NullMarked
package io.agentteams.sdk.tools;

import org.jspecify.annotations.NullMarked;
