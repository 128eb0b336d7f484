/**
 * Secrets that must never be readable where they are kept or carried: encrypted at rest with a key
 * held in configuration, and sealed (JWE) for the one service that may open them.
 */
@NullMarked
package io.agentteams.platform.secrets;

import org.jspecify.annotations.NullMarked;
