/** The event envelope every service publishes and consumes, and its JSON mapping. */
@NullMarked
package io.agentteams.platform.event;

import org.jspecify.annotations.NullMarked;
