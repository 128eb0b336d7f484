/**
 * The whole stack once per test JVM, and a client that talks to it the way an agent platform does.
 */
@NullMarked
package io.agentteams.devstack.support;

import org.jspecify.annotations.NullMarked;
