/** Named periodic work that every replica runs, bounded per run and measured. */
@NullMarked
package io.agentteams.platform.loop;

import org.jspecify.annotations.NullMarked;
