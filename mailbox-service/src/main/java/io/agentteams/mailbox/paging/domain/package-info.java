/** Newest-first paging with filters, page sizes and opaque cursors anchored to record identity. */
@NullMarked
package io.agentteams.mailbox.paging.domain;

import org.jspecify.annotations.NullMarked;
