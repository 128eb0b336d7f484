package io.agentteams.devstack;

import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;

/**
 * Keeps logback's own status lines off the run command's terminal, across every reset: each
 * service's start sets logging up again (a reset, then the same file), and a broker thread that
 * logs in between gets a "no appenders present" status, which Spring Boot prints when the context
 * has no status listener. A listener that survives resets means there always is one.
 */
public final class QuietStatusListener implements StatusListener {

  @Override
  public void addStatusEvent(Status status) {
    // Logback's own bookkeeping; the stack's log file has what the services log.
  }

  @Override
  public boolean isResetResistant() {
    return true;
  }
}
