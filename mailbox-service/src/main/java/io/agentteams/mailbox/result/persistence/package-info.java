/** Result records stored in Postgres through R2DBC. */
@NullMarked
package io.agentteams.mailbox.result.persistence;

import org.jspecify.annotations.NullMarked;
