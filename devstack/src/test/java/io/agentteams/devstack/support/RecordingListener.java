package io.agentteams.devstack.support;

import io.agentteams.sdk.worker.JobOffer;
import io.agentteams.sdk.worker.JobResult;
import io.agentteams.sdk.worker.WorkerListener;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Remembers what a worker did, for tests to wait on and assert. */
public final class RecordingListener implements WorkerListener {

  /** A report that reached the scheduler. */
  public record Report(UUID jobId, String type, Instant at) {}

  /** A report that did not. */
  public record FailedReport(
      UUID jobId, String type, Throwable cause, boolean retrying, Instant at) {}

  private final List<JobOffer> offers = new CopyOnWriteArrayList<>();
  private final List<Report> reports = new CopyOnWriteArrayList<>();
  private final List<FailedReport> failedReports = new CopyOnWriteArrayList<>();
  private final List<JobResult> results = new CopyOnWriteArrayList<>();
  private final AtomicInteger connects = new AtomicInteger();
  private final AtomicInteger disconnects = new AtomicInteger();

  @Override
  public void connected() {
    connects.incrementAndGet();
  }

  @Override
  public void disconnected(Throwable cause) {
    disconnects.incrementAndGet();
  }

  @Override
  public void offered(JobOffer offer) {
    offers.add(offer);
  }

  @Override
  public void reported(UUID jobId, String type) {
    reports.add(new Report(jobId, type, Instant.now()));
  }

  @Override
  public void reportFailed(UUID jobId, String type, Throwable cause, boolean retrying) {
    failedReports.add(new FailedReport(jobId, type, cause, retrying, Instant.now()));
  }

  @Override
  public void handled(UUID jobId, JobResult result) {
    results.add(result);
  }

  public List<JobOffer> offers() {
    return List.copyOf(offers);
  }

  /** The offers of one job. */
  public List<JobOffer> offers(UUID jobId) {
    return offers.stream().filter(o -> o.jobId().equals(jobId)).toList();
  }

  public List<Report> reports() {
    return List.copyOf(reports);
  }

  /** How many reports of that type about the job reached the scheduler. */
  public long reportsOf(UUID jobId, String type) {
    return reports.stream().filter(r -> r.jobId().equals(jobId) && r.type().equals(type)).count();
  }

  public List<FailedReport> failedReports() {
    return List.copyOf(failedReports);
  }

  public List<JobResult> results() {
    return List.copyOf(results);
  }

  public int connects() {
    return connects.get();
  }

  public int disconnects() {
    return disconnects.get();
  }
}
