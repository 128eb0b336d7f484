/** {@code /api/v1/teams/{teamId}/plans}: importing and approving plans over HTTP. */
@NullMarked
package io.agentteams.taskboard.plan.web;

import org.jspecify.annotations.NullMarked;
