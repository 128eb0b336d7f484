/**
 * Scripted team members: each role runs a seeded script of steps that use the member tools for real
 * (plans, claims, heartbeats, state, messages, hand-offs, a question for the owner). Every step is
 * idempotent, so a run the scheduler asks to reconcile continues where the lost run got to.
 */
@NullMarked
package io.agentteams.agents.scripted;

import org.jspecify.annotations.NullMarked;
