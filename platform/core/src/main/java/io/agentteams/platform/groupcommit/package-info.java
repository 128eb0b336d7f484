/** Group commit: concurrent requests written together, each answered on its own. */
@NullMarked
package io.agentteams.platform.groupcommit;

import org.jspecify.annotations.NullMarked;
