/**
 * The admission policy as plain Java: round-robin over owners with carry-over, drop-out, new owners
 * at the tail, spare capacity to anyone queued and optional weights; conversation heads; fairness.
 */
@NullMarked
package io.agentteams.scheduler.admission.domain;

import org.jspecify.annotations.NullMarked;
