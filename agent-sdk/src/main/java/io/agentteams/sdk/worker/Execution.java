package io.agentteams.sdk.worker;

import io.agentteams.sdk.tools.MemberTools;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One job this worker holds: the lease it reports under (a reconciliation offer for a job still
 * running here replaces it), the member token the handler acts with (refreshed by every report),
 * and how the run stands.
 */
final class Execution implements JobContext {

  private final JobOffer first;
  private final boolean reconciling;
  private final JobsInHand jobs;
  private final MemberTools tools;
  private volatile String leaseToken;
  private volatile Duration leaseTtl;
  private volatile String memberToken;
  private volatile Instant nextHeartbeat;
  private volatile @Nullable JobResult result;
  private volatile boolean cancelled;
  private volatile boolean interrupted;
  private volatile boolean abandoned;
  private final List<Runnable> onInterrupt = new ArrayList<>();

  Execution(JobOffer offer, boolean reconciling, JobsInHand jobs) {
    this.first = offer;
    this.reconciling = reconciling;
    this.jobs = jobs;
    this.leaseToken = offer.leaseToken();
    this.leaseTtl = Duration.ofSeconds(Math.max(1, offer.leaseTtlSeconds()));
    this.memberToken = offer.memberToken();
    this.nextHeartbeat = Instant.now().plus(heartbeatEvery());
    this.tools = jobs.memberTools(offer.teamId(), () -> this.memberToken);
  }

  UUID jobId() {
    return first.jobId();
  }

  @Override
  public boolean reportUsage(io.agentteams.sdk.jobs.Usage soFar) {
    return !cancelled && !interrupted && jobs.reportUsage(this, soFar);
  }

  String leaseToken() {
    return leaseToken;
  }

  /** A reconciliation offer for this job arrived while it runs here: its lease is the new one. */
  void takeOver(JobOffer offer) {
    leaseToken = offer.leaseToken();
    leaseTtl = Duration.ofSeconds(Math.max(1, offer.leaseTtlSeconds()));
    memberToken = offer.memberToken();
  }

  /** A report's answer came with a fresh member token. */
  void refreshMemberToken(@Nullable String token) {
    if (token != null && !token.isBlank()) {
      memberToken = token;
    }
  }

  Duration heartbeatEvery() {
    long millis = Math.max(200, leaseTtl.toMillis() / 3);
    return Duration.ofMillis(millis);
  }

  /** Whether a heartbeat is due now; if so, the next one is scheduled. */
  boolean heartbeatDue(Instant now) {
    if (result != null || abandoned || interrupted || now.isBefore(nextHeartbeat)) {
      return false;
    }
    nextHeartbeat = now.plus(heartbeatEvery());
    return true;
  }

  /**
   * Acknowledges the inbox messages the handler read through its tools, so the next job does not
   * get them again. Should it fail, their lease runs out and they come back: none is lost.
   */
  void acknowledgeMessages() {
    try {
      tools.acknowledgeMessages();
    } catch (RuntimeException e) {
      // at least once: the messages come back to a later read
    }
  }

  void finished(JobResult ended) {
    result = ended;
  }

  @Nullable JobResult result() {
    return result;
  }

  void cancel() {
    cancelled = true;
  }

  /**
   * The job was interrupted: the turn is to stop and nothing more is reported. True the first time,
   * when the actions registered with {@link #onInterrupt} have run.
   */
  boolean interrupt() {
    List<Runnable> actions;
    synchronized (onInterrupt) {
      if (interrupted) {
        return false;
      }
      interrupted = true;
      actions = List.copyOf(onInterrupt);
      onInterrupt.clear();
    }
    actions.forEach(Execution::runQuietly);
    return true;
  }

  @Override
  public boolean interrupted() {
    return interrupted;
  }

  @Override
  public void onInterrupt(Runnable action) {
    synchronized (onInterrupt) {
      if (!interrupted) {
        onInterrupt.add(action);
        return;
      }
    }
    runQuietly(action);
  }

  private static void runQuietly(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException ignored) {
      // the handler's own action; the interrupt stands either way
    }
  }

  /** The worker gave the job up (drained past its deadline, or aborted): report nothing more. */
  void abandon() {
    abandoned = true;
  }

  boolean abandoned() {
    return abandoned;
  }

  @Override
  public JobOffer offer() {
    return first;
  }

  @Override
  public MemberTools tools() {
    return tools;
  }

  @Override
  public boolean reconciling() {
    return reconciling;
  }

  @Override
  public boolean stopping() {
    return jobs.stopping() || abandoned;
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }

  @Override
  public String workerId() {
    return jobs.workerId();
  }
}
