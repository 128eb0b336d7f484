/** A real Kafka broker (KRaft, in-process) and a real Postgres (real binaries) without Docker. */
@NullMarked
package io.agentteams.platform.embedded;

import org.jspecify.annotations.NullMarked;
