/** The worker's HTTP API: the job stream and the report endpoint. */
@NullMarked
package io.agentteams.scheduler.dispatch.web;

import org.jspecify.annotations.NullMarked;
