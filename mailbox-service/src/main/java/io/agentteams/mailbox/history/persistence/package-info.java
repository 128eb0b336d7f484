/** Queries over the retained window of a team's messages. */
@NullMarked
package io.agentteams.mailbox.history.persistence;

import org.jspecify.annotations.NullMarked;
