/**
 * mailbox-service: messages, per-recipient deliveries and read cursors, the shared history and
 * result records.
 */
@NullMarked
package io.agentteams.mailbox;

import org.jspecify.annotations.NullMarked;
