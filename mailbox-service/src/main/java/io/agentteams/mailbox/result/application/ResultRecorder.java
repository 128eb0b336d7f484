package io.agentteams.mailbox.result.application;

import io.agentteams.contracts.scheduler.JobResultRecorded;
import io.agentteams.mailbox.result.domain.ResultRecord;
import io.agentteams.mailbox.result.persistence.ResultStore;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/** Keeps a result record for each finished job the scheduler reports. */
@Service
public class ResultRecorder {

  private final ResultStore results;

  public ResultRecorder(ResultStore results) {
    this.results = results;
  }

  /**
   * Records the result; a job already recorded keeps its first record. Characters the database or
   * UTF-8 cannot hold (U+0000, unpaired surrogates) become U+FFFD rather than sending the event to
   * the dead-letter topic.
   */
  public Mono<Void> on(JobResultRecorded event) {
    return Mono.fromCallable(
            () ->
                new ResultRecord(
                    event.jobId(),
                    UUID.fromString(event.teamId()),
                    event.member(),
                    event.requester(),
                    event.status(),
                    event.parentJobId(),
                    event.conversationId(),
                    event.runId(),
                    storable(event.request()),
                    storable(event.answer()),
                    event.answerTruncated(),
                    Instant.parse(event.createdAt()),
                    event.startedAt() == null ? null : Instant.parse(event.startedAt()),
                    Instant.parse(event.finishedAt())))
        .flatMap(results::record);
  }

  static String storable(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else if (c == '\u0000' || Character.isSurrogate(c)) {
        out.append('\uFFFD');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
