package io.agentteams.devstack.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.fault.Admission.Report;
import io.agentteams.devstack.fault.Admission.Request;
import io.agentteams.devstack.fault.Anomaly.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admission checker finds each anomaly in a record made to show it, and nothing else. */
class AdmissionCheckerTest {

  private final History<Request> requests = new History<>();
  private final History<Report> reports = new History<>();
  private final Map<String, String> states = new LinkedHashMap<>();

  @Test
  void runsWithinTheSlotsOneAtATimePerConversationAreClean() {
    request("m1", 1, "j1");
    request("m2", 1, "j2");
    run("j1", "m1", "L1", 10, 20);
    run("j2", "m2", "L2", 12, 22);

    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 2)).isEmpty();
  }

  @Test
  void moreRunsAtOnceThanSlotsExceedTheBound() {
    request("m1", 1, "j1");
    request("m2", 1, "j2");
    request("m3", 1, "j3");
    run("j1", "m1", "L1", 10, 30);
    run("j2", "m2", "L2", 12, 30);
    run("j3", "m3", "L3", 14, 30);

    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 2))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.kind()).isEqualTo(Kind.OTHER);
              assertThat(a.evidence()).contains("3 jobs ran at once with 2 slots");
            });
  }

  @Test
  void aStartedJobOfferedAsNewWorkAgainIsADoubleAdmissionButAReconcileOfferIsNot() {
    request("m1", 1, "j1");
    run("j1", "m1", "L1", 10, 20);
    offer("j1", "m1", "L2", true, 25);
    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 2)).isEmpty();

    offer("j1", "m1", "L3", false, 30);
    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 2))
        .extracting(Anomaly::kind)
        .containsExactly(Kind.DUPLICATED);
  }

  @Test
  void anAcknowledgedJobThatNeverFinishedIsLostAndOneTheSchedulerDoesNotKnowIsMissing() {
    request("m1", 1, "j1");
    request("m2", 1, "j2");
    states.put("j1", "queued");
    states.put("j2", "absent (404)");

    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 2))
        .extracting(Anomaly::kind)
        .containsExactlyInAnyOrder(Kind.LOST, Kind.ACKNOWLEDGED_MISSING);
  }

  @Test
  void aConversationsJobsRunningAtOnceOrOutOfTheirOrderAreReported() {
    request("m1", 1, "j1");
    request("m1", 2, "j2");
    run("j2", "m1", "L2", 10, 30);
    run("j1", "m1", "L1", 20, 40);

    assertThat(AdmissionChecker.check(requests.ops(), reports.ops(), states, 4))
        .extracting(Anomaly::kind)
        .containsExactlyInAnyOrder(Kind.OTHER, Kind.OUT_OF_ORDER);
  }

  private void request(String member, int n, String job) {
    requests.record(
        "request-" + member,
        "request",
        new Request("t", member, member + "-" + n, n, job),
        Outcome.OK,
        n,
        n,
        "");
    states.put(job, "completed");
  }

  private void offer(String job, String member, String lease, boolean reconcile, long at) {
    reports.record(
        "worker", "offer", new Report("a", job, member, lease, reconcile), Outcome.OK, at, at, "");
  }

  private void run(String job, String member, String lease, long from, long to) {
    offer(job, member, lease, false, from);
    Report report = new Report("a", job, member, lease, false);
    reports.record("worker", "started", report, Outcome.OK, from + 1, from + 1, "");
    reports.record("worker", "completed", report, Outcome.OK, to, to, "");
  }
}
