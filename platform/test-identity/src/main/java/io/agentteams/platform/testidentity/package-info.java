/**
 * TEST ONLY: keys made afresh for each test JVM, handed to every Spring test context, and a signer
 * for the internal tokens tests present to services directly.
 */
@NullMarked
package io.agentteams.platform.testidentity;

import org.jspecify.annotations.NullMarked;
