/**
 * Presence as plain Java: whether an agent's worker is connected, since when, on how many streams.
 */
@NullMarked
package io.agentteams.scheduler.presence.domain;

import org.jspecify.annotations.NullMarked;
