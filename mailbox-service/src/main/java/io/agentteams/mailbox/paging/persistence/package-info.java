/** What searches of every kind of record bind to their statements. */
@NullMarked
package io.agentteams.mailbox.paging.persistence;

import org.jspecify.annotations.NullMarked;
