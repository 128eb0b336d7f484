/** Test support: a real Kafka broker and a real Postgres, started once per test JVM and shared. */
@NullMarked
package io.agentteams.platform.test;

import org.jspecify.annotations.NullMarked;
