/** Messages, deliveries and read cursors stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.mailbox.message.persistence;

import org.jspecify.annotations.NullMarked;
