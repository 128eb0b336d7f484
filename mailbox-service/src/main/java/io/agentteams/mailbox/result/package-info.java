/** Result records of finished jobs, kept independently of the message history's rotation. */
@NullMarked
package io.agentteams.mailbox.result;

import org.jspecify.annotations.NullMarked;
