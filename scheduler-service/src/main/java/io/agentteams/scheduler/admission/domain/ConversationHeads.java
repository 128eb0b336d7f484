package io.agentteams.scheduler.admission.domain;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Conversations are serialised: the first unfinished job of a conversation holds its head, and only
 * a head that waits in the queue is admissible. A head that runs, is unknown or waits for input
 * keeps every later job of its conversation waiting, even with free slots.
 *
 * <p>The admission loop asks the same question of the database ({@code DISTINCT ON} the
 * conversation, in creation order); this is the rule in plain Java for the simulation and tests.
 */
public final class ConversationHeads {

  private ConversationHeads() {}

  /** The admissible jobs among the unfinished ones: queued conversation heads. */
  public static List<Candidate> admissible(Collection<UnfinishedJob> unfinished) {
    Map<String, UnfinishedJob> heads = new HashMap<>();
    for (UnfinishedJob job : unfinished) {
      heads.merge(job.conversationId(), job, (a, b) -> a.sequence() <= b.sequence() ? a : b);
    }
    return heads.values().stream()
        .filter(UnfinishedJob::queued)
        .sorted(Comparator.comparingLong(UnfinishedJob::queuePosition))
        .map(
            head ->
                new Candidate(
                    head.jobId(),
                    head.ownerId(),
                    head.teamId(),
                    head.conversationId(),
                    head.queuePosition()))
        .toList();
  }
}
