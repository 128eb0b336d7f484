/**
 * Jobs: requests to members and hand-offs between them, answers to their questions, cancellation,
 * and a team's activity.
 */
@NullMarked
package io.agentteams.sdk.jobs;

import org.jspecify.annotations.NullMarked;
