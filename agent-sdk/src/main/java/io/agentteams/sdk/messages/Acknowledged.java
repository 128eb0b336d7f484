package io.agentteams.sdk.messages;

/**
 * An acknowledged inbox read.
 *
 * @param readCursor the member's cursor after it: every message at or below it is read
 * @param acknowledged how many messages it marked read (0 when acknowledged before)
 */
public record Acknowledged(long readCursor, int acknowledged) {}
