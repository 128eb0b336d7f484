package io.agentteams.devstack.fault;

import io.agentteams.devstack.fault.Admission.Report;
import io.agentteams.devstack.fault.Admission.Request;
import io.agentteams.devstack.fault.Anomaly.Kind;
import io.agentteams.devstack.fault.History.Op;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the record of requests and of what the workers saw and said, and the jobs' final states,
 * and finds what admission promises never happens: an acknowledged job missing or never finished,
 * one request made into two jobs, a job run twice, more jobs running at once than there are slots,
 * two jobs of one conversation running at once or out of their order.
 */
final class AdmissionChecker {

  private AdmissionChecker() {}

  /** A job's run as its worker saw it: from the offer it started on to its completion report. */
  record Run(String jobId, String member, long from, long to) {}

  static List<Anomaly> check(
      List<Op<Request>> requests,
      List<Op<Report>> reports,
      Map<String, String> finalStates,
      int slots) {
    List<Anomaly> anomalies = new ArrayList<>();
    Map<String, Set<String>> jobsPerKey = new HashMap<>();
    Map<String, Op<Request>> acknowledged = new LinkedHashMap<>();
    for (Op<Request> op : requests) {
      if (op.outcome() == Outcome.OK) {
        Request request = op.value();
        jobsPerKey
            .computeIfAbsent(request.team() + "|" + request.key(), k -> new HashSet<>())
            .add(request.jobId());
        acknowledged.putIfAbsent(request.jobId(), op);
      }
    }
    jobsPerKey.forEach(
        (key, jobs) -> {
          if (jobs.size() > 1) {
            anomalies.add(
                Anomaly.of(Kind.DUPLICATED, "request %s was made into jobs %s", key, jobs));
          }
        });
    acknowledged.forEach(
        (jobId, op) -> {
          String state = finalStates.get(jobId);
          if (state == null || state.startsWith("absent")) {
            anomalies.add(
                Anomaly.of(
                    Kind.ACKNOWLEDGED_MISSING,
                    "request #%d (%s) was acknowledged as job %s, which the scheduler does not know"
                        + " (%s)",
                    op.index(),
                    op.value().key(),
                    jobId,
                    state));
          } else if (!state.equals("completed")) {
            anomalies.add(
                Anomaly.of(
                    Kind.LOST,
                    "job %s (%s) never finished: it is %s",
                    jobId,
                    op.value().key(),
                    state));
          }
        });

    // A job runs once: after a worker started it, it is never offered as new work again.
    Map<String, Long> startedAt = new HashMap<>();
    Map<String, Op<Report>> firstOffer = new HashMap<>();
    Map<String, Long> completedAt = new HashMap<>();
    List<Op<Report>> ordered = new ArrayList<>(reports);
    ordered.sort(Comparator.comparingLong(Op::invokedNanos));
    for (Op<Report> op : ordered) {
      String job = op.value().jobId();
      switch (op.type()) {
        case "offer" -> {
          firstOffer.putIfAbsent(job, op);
          Long started = startedAt.get(job);
          if (started != null && !op.value().reconcile() && op.invokedNanos() > started) {
            anomalies.add(
                Anomaly.of(
                    Kind.DUPLICATED,
                    "job %s was offered as new work (lease %s) after a worker had started it",
                    job,
                    op.value().lease()));
          }
        }
        case "started" -> {
          if (op.outcome() == Outcome.OK) {
            startedAt.putIfAbsent(job, op.invokedNanos());
          }
        }
        case "completed" -> {
          if (op.outcome() == Outcome.OK) {
            completedAt.putIfAbsent(job, op.invokedNanos());
          }
        }
        default -> {}
      }
    }

    // Runs: from the offer a worker started on to the completion it sent. A slot is held at least
    // that long, so more such runs at once than slots means admission exceeded its bound.
    List<Run> runs = new ArrayList<>();
    startedAt.forEach(
        (job, started) -> {
          Op<Report> offer = firstOffer.get(job);
          long to = completedAt.getOrDefault(job, Long.MAX_VALUE);
          runs.add(new Run(job, offer.value().member(), offer.invokedNanos(), to));
        });
    maxConcurrency(runs, slots, anomalies);
    perConversation(runs, acknowledged, anomalies);
    return anomalies;
  }

  private static void maxConcurrency(List<Run> runs, int slots, List<Anomaly> anomalies) {
    record Edge(long at, int delta, String job) {}
    List<Edge> edges = new ArrayList<>();
    for (Run run : runs) {
      edges.add(new Edge(run.from(), 1, run.jobId()));
      if (run.to() != Long.MAX_VALUE) {
        edges.add(new Edge(run.to(), -1, run.jobId()));
      }
    }
    // Ends before starts at the same moment: a slot freed may be taken at once.
    edges.sort(Comparator.comparingLong(Edge::at).thenComparingInt(Edge::delta));
    Set<String> running = new HashSet<>();
    int worst = 0;
    Set<String> worstSet = Set.of();
    for (Edge edge : edges) {
      if (edge.delta() > 0) {
        running.add(edge.job());
      } else {
        running.remove(edge.job());
      }
      if (running.size() > worst) {
        worst = running.size();
        worstSet = Set.copyOf(running);
      }
    }
    if (worst > slots) {
      anomalies.add(
          Anomaly.of(Kind.OTHER, "%d jobs ran at once with %d slots: %s", worst, slots, worstSet));
    }
  }

  private static void perConversation(
      List<Run> runs, Map<String, Op<Request>> acknowledged, List<Anomaly> anomalies) {
    Map<String, List<Run>> byMember = new HashMap<>();
    for (Run run : runs) {
      Op<Request> request = acknowledged.get(run.jobId());
      String conversation = (request == null ? "?" : request.value().team()) + "|" + run.member();
      byMember.computeIfAbsent(conversation, m -> new ArrayList<>()).add(run);
    }
    byMember.forEach(
        (conversation, own) -> {
          own.sort(Comparator.comparingLong(Run::from));
          for (int i = 1; i < own.size(); i++) {
            Run before = own.get(i - 1);
            Run after = own.get(i);
            if (after.from() < before.to()) {
              anomalies.add(
                  Anomaly.of(
                      Kind.OTHER,
                      "jobs %s and %s of conversation %s ran at once",
                      before.jobId(),
                      after.jobId(),
                      conversation));
            }
            Op<Request> first = acknowledged.get(before.jobId());
            Op<Request> second = acknowledged.get(after.jobId());
            if (first != null && second != null && first.value().n() > second.value().n()) {
              anomalies.add(
                  Anomaly.of(
                      Kind.OUT_OF_ORDER,
                      "conversation %s ran request %d before request %d",
                      conversation,
                      second.value().n(),
                      first.value().n()));
            }
          }
        });
  }
}
