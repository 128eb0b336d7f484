package io.agentteams.devstack;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the stack when the process that launched it exits. The run command launches the stack as a
 * child of Maven: Ctrl+C reaches both, but a SIGTERM sent to Maven alone (a terminal closing, a
 * supervisor stopping the command) would leave the stack running with its ports and Postgres. The
 * run profile turns this on with {@code -Dagentteams.devstack.stop-with-parent=true}; a stack
 * started some other way keeps running on its own.
 */
final class StopWithParent {

  private static final Logger log = LoggerFactory.getLogger(StopWithParent.class);

  private StopWithParent() {}

  /** How often the parent is looked at. */
  static final Duration CHECK_EVERY = Duration.ofMillis(200);

  /** Exits (running the shutdown hooks, so the stack stops cleanly) once the parent is gone. */
  static void watchIfAsked() {
    if (!Boolean.getBoolean("agentteams.devstack.stop-with-parent")) {
      return;
    }
    ProcessHandle.current().parent().ifPresent(StopWithParent::watch);
  }

  /**
   * Looks at the parent every {@link #CHECK_EVERY}. {@code ProcessHandle.onExit()} of a process
   * that is not this one's child polls with a pause that grows to 5 s: the stop began seconds after
   * Maven had gone.
   */
  private static void watch(ProcessHandle parent) {
    ScheduledExecutorService watcher =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "devstack-parent-watch");
              thread.setDaemon(true);
              return thread;
            });
    watcher.scheduleWithFixedDelay(
        () -> {
          if (!parent.isAlive()) {
            log.info("the launching process {} exited; stopping", parent.pid());
            watcher.shutdown();
            // 143: the status of a process stopped by SIGTERM, as the parent was.
            System.exit(143);
          }
        },
        CHECK_EVERY.toMillis(),
        CHECK_EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
  }
}
