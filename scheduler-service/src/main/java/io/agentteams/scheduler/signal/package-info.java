/** Postgres LISTEN/NOTIFY wake-ups shared by the admission loop and the workers' streams. */
@NullMarked
package io.agentteams.scheduler.signal;

import org.jspecify.annotations.NullMarked;
