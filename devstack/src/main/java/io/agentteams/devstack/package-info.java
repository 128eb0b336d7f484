/** The embedded default: Kafka, Postgres and all five services in one process tree, no Docker. */
@NullMarked
package io.agentteams.devstack;

import org.jspecify.annotations.NullMarked;
