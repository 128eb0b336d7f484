/** How owners' agents run (their runtime kind, endpoint and webhook secrets), as pushed to. */
@NullMarked
package io.agentteams.scheduler.runtime.persistence;

import org.jspecify.annotations.NullMarked;
