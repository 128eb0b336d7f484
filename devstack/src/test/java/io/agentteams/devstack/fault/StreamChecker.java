package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.History.Op;
import io.agentteams.devstack.fault.TeamStreams.Published;
import io.agentteams.devstack.fault.TeamStreams.Received;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what the subscribers received and what the broker holds, and finds what resumable streams
 * promise never happens: an event of the team never received (a gap, or a {@code reset} in place of
 * what was missed), an event received twice, and events of one topic in another order than the
 * broker's.
 */
final class StreamChecker {

  private StreamChecker() {}

  static List<Anomaly> check(List<Op<Received>> received, List<Published> published) {
    List<Anomaly> anomalies = new ArrayList<>();
    Map<String, Published> byId = new HashMap<>();
    published.forEach(p -> byId.putIfAbsent(p.eventId(), p));
    Set<String> got = new HashSet<>();
    Map<String, long[]> lastOffset = new HashMap<>();
    for (Op<Received> op : received) {
      if (!op.type().equals("event")) {
        continue;
      }
      Received event = op.value();
      if (event.type().equals("reset")) {
        anomalies.add(
            Anomaly.of(
                Kind.LOST,
                "the stream of team %s was reset at %s: events were missed beyond the window",
                event.team(),
                event.cursor()));
        continue;
      }
      if (!got.add(event.eventId())) {
        anomalies.add(
            Anomaly.of(
                Kind.DUPLICATED,
                "event %s (%s) reached the subscriber of team %s twice",
                event.eventId(),
                event.type(),
                event.team()));
        continue;
      }
      Published truth = byId.get(event.eventId());
      if (truth == null) {
        anomalies.add(
            Anomaly.of(
                Kind.OTHER,
                "event %s (%s) reached team %s's subscriber but is not in the broker",
                event.eventId(),
                event.type(),
                event.team()));
        continue;
      }
      long[] offsets = lastOffset.computeIfAbsent(event.team(), t -> new long[] {-1, -1, -1, -1});
      if (truth.offset() <= offsets[truth.topic()]) {
        anomalies.add(
            Anomaly.of(
                Kind.OUT_OF_ORDER,
                "event %s (offset %d) reached team %s's subscriber after offset %d of its topic",
                event.eventId(),
                truth.offset(),
                event.team(),
                offsets[truth.topic()]));
      }
      offsets[truth.topic()] = Math.max(offsets[truth.topic()], truth.offset());
    }
    Set<String> reported = new HashSet<>();
    for (Published event : published) {
      if (!got.contains(event.eventId()) && reported.add(event.eventId())) {
        anomalies.add(
            Anomaly.of(
                Kind.LOST,
                "event %s (%s, topic %d offset %d) of team %s never reached its subscriber",
                event.eventId(),
                event.type(),
                event.topic(),
                event.offset(),
                event.team()));
      }
    }
    return anomalies;
  }
}
