package io.agentteams.devstack;

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

  /** Exits (running the shutdown hooks, so the stack stops cleanly) once the parent is gone. */
  static void watchIfAsked() {
    if (!Boolean.getBoolean("agentteams.devstack.stop-with-parent")) {
      return;
    }
    ProcessHandle.current()
        .parent()
        .ifPresent(
            parent ->
                parent
                    .onExit()
                    .thenRun(
                        () -> {
                          log.info("the launching process {} exited; stopping", parent.pid());
                          // 143: the status of a process stopped by SIGTERM, as the parent was.
                          System.exit(143);
                        }));
  }
}
