package io.agentteams.scheduler.a2a.domain;

/**
 * What the runtime needs from an A2A agent's card: the URL of its A2A 1.0 JSON-RPC interface and
 * whether it streams.
 *
 * @param interfaceUrl where JSON-RPC requests go
 * @param streaming whether the card says the agent supports SendStreamingMessage and
 *     SubscribeToTask
 */
public record AgentCard(String interfaceUrl, boolean streaming) {}
