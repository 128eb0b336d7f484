/**
 * The agent worker: holds its agent's job stream, runs up to N jobs at once with a {@link
 * io.agentteams.sdk.worker.JobHandler}, heartbeats each lease, reports how each job went, rides out
 * dropped streams and gateway restarts, reconciles jobs whose outcome the scheduler lost track of,
 * and drains on shutdown.
 */
@NullMarked
package io.agentteams.sdk.worker;

import org.jspecify.annotations.NullMarked;
