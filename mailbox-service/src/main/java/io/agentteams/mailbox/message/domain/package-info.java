/** Messages, their senders and addressing rules, in plain Java. */
@NullMarked
package io.agentteams.mailbox.message.domain;

import org.jspecify.annotations.NullMarked;
