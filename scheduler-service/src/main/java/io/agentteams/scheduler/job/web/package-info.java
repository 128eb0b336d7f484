/** The owner's and members' HTTP API for requests, jobs and activity. */
@NullMarked
package io.agentteams.scheduler.job.web;

import org.jspecify.annotations.NullMarked;
