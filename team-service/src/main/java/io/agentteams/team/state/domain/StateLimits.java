package io.agentteams.team.state.domain;

import io.agentteams.platform.bounds.TextBound;

/**
 * The limits a team's public state must keep, from configuration.
 *
 * @param maxEntries the most entries a team may hold, archived ones included
 * @param title an entry title's bound
 * @param content an entry content's bound
 * @param maxTotalJsonBytes the most UTF-8 bytes of the JSON array of all entries
 * @param requestId a publish request id's bound
 */
public record StateLimits(
    int maxEntries,
    TextBound title,
    TextBound content,
    int maxTotalJsonBytes,
    TextBound requestId) {

  public StateLimits {
    if (maxEntries < 1 || maxTotalJsonBytes < 2) {
      throw new IllegalArgumentException("state limits must allow at least one entry");
    }
  }

  /** The defaults of DESIGN.md: 20 entries, title 80/160, content 1,000/2,000, 16,000 bytes. */
  public static StateLimits defaults() {
    return new StateLimits(
        20,
        new TextBound("state.title", 80, 160),
        new TextBound("state.content", 1000, 2000),
        16_000,
        new TextBound("state.request-id", 128, 128));
  }
}
