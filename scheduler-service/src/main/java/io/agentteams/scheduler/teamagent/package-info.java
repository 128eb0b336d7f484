/**
 * The team as an A2A agent, the scheduler's half: the push-notification configs the gateway's team
 * agents keep for their clients ({@code web}, {@code persistence}), and the notifier that pushes a
 * job's state changes to them ({@code notify}). Not the A2A runtime ({@code a2a}), which sends jobs
 * to outside A2A agents: here the team is the agent and outside clients are told about its tasks.
 * It shares the A2A runtime's outbound bounds ({@code agentteams.scheduler.a2a.*}) only.
 */
@NullMarked
package io.agentteams.scheduler.teamagent;

import org.jspecify.annotations.NullMarked;
