/** The team's shared record: the newest messages, searchable and paged newest first. */
@NullMarked
package io.agentteams.mailbox.history;

import org.jspecify.annotations.NullMarked;
