/** Starting, approving, cancelling and advancing runs, each step in one transaction. */
@NullMarked
package io.agentteams.scheduler.run.application;

import org.jspecify.annotations.NullMarked;
