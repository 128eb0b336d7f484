/** The delivery consumer: mailbox events in, copies into inboxes. */
@NullMarked
package io.agentteams.mailbox.message.messaging;

import org.jspecify.annotations.NullMarked;
