package io.agentteams.gateway.stream;

import io.agentteams.contracts.Topics;
import io.micrometer.core.instrument.Counter;
import java.util.function.Predicate;

/**
 * One connection's memory of how far it has gone on each topic: an event at or before that offset
 * was sent already (or, resumed, was had before), so it is not sent again. A feed consumer that
 * rejoins after a broker failure reads records again from its last commit; those that fell out of
 * the window meanwhile would otherwise reach open streams twice, carrying the latest cursor.
 */
final class SentOnce implements Predicate<FeedEvent> {

  private final long[] upTo;
  private final Counter dropped;

  SentOnce(EventCursor from, Counter dropped) {
    this.dropped = dropped;
    upTo = new long[Topics.EVENT_TOPICS.size()];
    for (int topic = 0; topic < upTo.length; topic++) {
      upTo[topic] = from.offset(topic);
    }
  }

  @Override
  public boolean test(FeedEvent event) {
    if (event.offset() <= upTo[event.topic()]) {
      dropped.increment();
      return false;
    }
    upTo[event.topic()] = event.offset();
    return true;
  }
}
