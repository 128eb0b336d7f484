package io.agentteams.sdk.state;

/**
 * An entry to publish.
 *
 * @param requestId the caller's id for this publish: a retry with the same id and content returns
 *     the entry already published; the same id with other content is refused
 * @param kind objective, plan, finding, question or requirement
 * @param title at most 80 characters
 * @param content at most 1,000 characters
 */
public record NewEntry(String requestId, String kind, String title, String content) {}
