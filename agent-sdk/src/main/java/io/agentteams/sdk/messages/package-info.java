/**
 * A team's mailbox: direct messages and broadcasts, a member's inbox, the shared history and job
 * results.
 */
@NullMarked
package io.agentteams.sdk.messages;

import org.jspecify.annotations.NullMarked;
