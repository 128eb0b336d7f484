package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.History.Op;
import io.agentteams.devstack.fault.StateUpdates.Update;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the record of updates and the final entry, and finds what compare-and-set promises never
 * happens: two different updates acknowledged as the same revision (one of them lost), and an
 * acknowledged revision the entry never reached or whose content it does not hold.
 */
final class StateChecker {

  private StateChecker() {}

  static List<Anomaly> check(List<Op<Update>> updates, Update finalEntry) {
    List<Anomaly> anomalies = new ArrayList<>();
    Map<Long, Op<Update>> byRevision = new HashMap<>();
    Op<Update> latest = null;
    for (Op<Update> op : updates) {
      if (op.outcome() != Outcome.OK) {
        continue;
      }
      Update update = op.value();
      Op<Update> other = byRevision.putIfAbsent(update.revision(), op);
      if (other != null && !other.value().content().equals(update.content())) {
        anomalies.add(
            Anomaly.of(
                Kind.DUPLICATED,
                "updates #%d (%s) and #%d (%s) were both acknowledged as revision %d",
                other.index(),
                other.value().content(),
                op.index(),
                update.content(),
                update.revision()));
      }
      if (latest == null || update.revision() > latest.value().revision()) {
        latest = op;
      }
    }
    if (latest != null) {
      Update last = latest.value();
      if (finalEntry.revision() < last.revision()) {
        anomalies.add(
            Anomaly.of(
                Kind.ACKNOWLEDGED_MISSING,
                "update #%d was acknowledged as revision %d; the entry is at revision %d",
                latest.index(),
                last.revision(),
                finalEntry.revision()));
      } else if (finalEntry.revision() == last.revision()
          && !finalEntry.content().equals(last.content())) {
        anomalies.add(
            Anomaly.of(
                Kind.ACKNOWLEDGED_MISSING,
                "update #%d was acknowledged as revision %d with \"%s\"; the entry holds \"%s\"",
                latest.index(),
                last.revision(),
                last.content(),
                finalEntry.content()));
      }
    }
    return anomalies;
  }
}
