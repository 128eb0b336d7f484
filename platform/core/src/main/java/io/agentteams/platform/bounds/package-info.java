/** Text and JSON size limits counted in characters and UTF-8 bytes. */
@NullMarked
package io.agentteams.platform.bounds;

import org.jspecify.annotations.NullMarked;
