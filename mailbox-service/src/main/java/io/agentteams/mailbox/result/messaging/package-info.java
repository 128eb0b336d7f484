/** The results consumer: scheduler events in, result records kept. */
@NullMarked
package io.agentteams.mailbox.result.messaging;

import org.jspecify.annotations.NullMarked;
