/**
 * Reading the shared record: filtered newest-first pages and the recent messages of the team
 * context.
 */
@NullMarked
package io.agentteams.mailbox.history.application;

import org.jspecify.annotations.NullMarked;
