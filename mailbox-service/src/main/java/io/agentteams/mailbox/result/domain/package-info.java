/** The result record of a finished job, in plain Java. */
@NullMarked
package io.agentteams.mailbox.result.domain;

import org.jspecify.annotations.NullMarked;
