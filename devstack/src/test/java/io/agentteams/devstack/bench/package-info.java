/** Benchmarks of the whole stack (not tests): run with {@code -Dbench=<name>}. */
@NullMarked
package io.agentteams.devstack.bench;

import org.jspecify.annotations.NullMarked;
