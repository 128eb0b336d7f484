package io.agentteams.contracts.scheduler;

/**
 * How a job shows as an A2A 1.0 task when its team answers as an A2A agent: the task's state for
 * each job state, the same in the gateway's answers and in the scheduler's push notifications.
 */
public final class A2aTaskState {

  public static final String SUBMITTED = "TASK_STATE_SUBMITTED";
  public static final String WORKING = "TASK_STATE_WORKING";
  public static final String INPUT_REQUIRED = "TASK_STATE_INPUT_REQUIRED";
  public static final String COMPLETED = "TASK_STATE_COMPLETED";
  public static final String FAILED = "TASK_STATE_FAILED";
  public static final String CANCELED = "TASK_STATE_CANCELED";

  private A2aTaskState() {}

  /**
   * The task state of a job in {@code jobState} ({@link JobStateChanged#STATES}): waiting for
   * admission or for a worker is {@code submitted}; running, or with its outcome not yet known, is
   * {@code working}; a question is {@code input-required}; an interrupted job is {@code canceled},
   * as a cancelled one is. A state this contract does not name is {@code submitted}: the task is
   * shown as not yet started rather than as an outcome it may not have.
   */
  public static String ofJob(String jobState) {
    return switch (jobState) {
      case "queued", "admitted", "waiting_worker" -> SUBMITTED;
      case "running", "unknown" -> WORKING;
      case "waiting_input" -> INPUT_REQUIRED;
      case "completed" -> COMPLETED;
      case "failed" -> FAILED;
      case "cancelled", "interrupted" -> CANCELED;
      default -> SUBMITTED;
    };
  }
}
