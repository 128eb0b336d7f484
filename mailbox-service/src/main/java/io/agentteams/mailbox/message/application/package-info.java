/** Sending, delivering and reading messages; each change commits with its outbox events. */
@NullMarked
package io.agentteams.mailbox.message.application;

import org.jspecify.annotations.NullMarked;
