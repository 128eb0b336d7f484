package io.agentteams.sdk.streams;

import org.jspecify.annotations.Nullable;

/**
 * One event of a server-sent event stream.
 *
 * @param id its id; a client that reconnects with it as {@code Last-Event-ID} resumes after it
 * @param event its name ({@code message} when the stream gave none)
 * @param data its data, lines joined with {@code \n}
 */
public record ServerSentEvent(@Nullable String id, String event, String data) {}
