/**
 * {@code /console/attention}: what needs the signed-in owner across their teams (questions waiting
 * for an answer, blocked and failed work), as a page and as a live count every console page shows.
 */
@NullMarked
package io.agentteams.gateway.console.attention;

import org.jspecify.annotations.NullMarked;
