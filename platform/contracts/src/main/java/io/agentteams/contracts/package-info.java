/** The contracts services share: topic names and event payloads. Plain Java, no framework. */
@NullMarked
package io.agentteams.contracts;

import org.jspecify.annotations.NullMarked;
