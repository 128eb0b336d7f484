package io.agentteams.sdk.worker;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The worker's own record of the jobs it ran, from which it answers reconciliation offers: a job
 * whose outcome it knows is reported, never run again. The in-memory journal covers the worker's
 * lifetime; a worker that keeps its id across restarts needs a durable one.
 */
public interface JobJournal {

  /** What the journal knows of a job. */
  Optional<Entry> find(UUID jobId);

  /** A run of the job began here. */
  void started(UUID jobId);

  /** The run ended so (the scheduler may not know yet). */
  void finished(UUID jobId, JobResult result);

  /** The scheduler recorded the outcome; the entry may go. */
  void settled(UUID jobId);

  /** A journal in memory, for the life of the worker. */
  static JobJournal inMemory() {
    return new JobJournal() {
      private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();

      @Override
      public Optional<Entry> find(UUID jobId) {
        return Optional.ofNullable(entries.get(jobId));
      }

      @Override
      public void started(UUID jobId) {
        entries.put(jobId, new Entry(jobId, null));
      }

      @Override
      public void finished(UUID jobId, JobResult result) {
        entries.put(jobId, new Entry(jobId, result));
      }

      @Override
      public void settled(UUID jobId) {
        entries.remove(jobId);
      }
    };
  }

  /**
   * A job in the journal.
   *
   * @param jobId the job
   * @param result how its run ended; null while it runs (or when it was cut short by a crash)
   */
  record Entry(UUID jobId, @Nullable JobResult result) {}
}
