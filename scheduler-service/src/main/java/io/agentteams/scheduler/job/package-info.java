/** Jobs: requests, hand-offs and receipts, with their chains, limits, answers and results. */
@NullMarked
package io.agentteams.scheduler.job;

import org.jspecify.annotations.NullMarked;
