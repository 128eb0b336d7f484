/**
 * Who may touch which team's mailbox: the policies this service asks the platform's team access to
 * apply, and the refusals its API has always answered with.
 */
@NullMarked
package io.agentteams.mailbox.access;

import org.jspecify.annotations.NullMarked;
