/**
 * Presence in Postgres: one row per open job stream, renewed by its replica, lapsing if it dies.
 */
@NullMarked
package io.agentteams.scheduler.presence.persistence;

import org.jspecify.annotations.NullMarked;
