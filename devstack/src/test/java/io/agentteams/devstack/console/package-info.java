/**
 * Browser tests of the team console: real headless Chromium against the running stack, one browser
 * shared by the test classes of a JVM.
 */
@NullMarked
package io.agentteams.devstack.console;

import org.jspecify.annotations.NullMarked;
