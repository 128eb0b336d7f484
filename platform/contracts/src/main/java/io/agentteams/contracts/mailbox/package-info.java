/** Events published by mailbox-service: messages queued, delivered to an inbox, and read. */
@NullMarked
package io.agentteams.contracts.mailbox;

import org.jspecify.annotations.NullMarked;
