/** Conditional reads at the edge: ETags on JSON reads and 304 when nothing changed. */
@NullMarked
package io.agentteams.gateway.caching;

import org.jspecify.annotations.NullMarked;
