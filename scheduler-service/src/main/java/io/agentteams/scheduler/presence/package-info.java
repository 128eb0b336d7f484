/** Worker presence: which agents have a pull worker connected now, seen alike by every replica. */
@NullMarked
package io.agentteams.scheduler.presence;

import org.jspecify.annotations.NullMarked;
