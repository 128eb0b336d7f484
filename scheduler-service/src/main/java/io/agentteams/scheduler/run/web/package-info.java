/** {@code /api/v1/teams/{teamId}/runs}: start, read, approve, reject, cancel and export runs. */
@NullMarked
package io.agentteams.scheduler.run.web;

import org.jspecify.annotations.NullMarked;
