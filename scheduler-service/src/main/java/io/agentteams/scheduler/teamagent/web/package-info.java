/** The REST face of A2A push-notification configs, which the gateway's team agents call. */
@NullMarked
package io.agentteams.scheduler.teamagent.web;

import org.jspecify.annotations.NullMarked;
