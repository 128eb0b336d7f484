/**
 * Who may touch which team's mailbox, decided on every call from the verified caller and this
 * service's roster projection.
 */
@NullMarked
package io.agentteams.mailbox.access;

import org.jspecify.annotations.NullMarked;
