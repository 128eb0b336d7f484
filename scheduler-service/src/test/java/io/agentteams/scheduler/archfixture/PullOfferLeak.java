package io.agentteams.scheduler.archfixture;

import io.agentteams.scheduler.dispatch.web.WorkerEventsController;

/** A fixture: code outside the web layer that reaches into the pull runtime's web types. */
public class PullOfferLeak {

  /** The controller's type, borrowed where only its body types should be. */
  public Class<?> borrowed() {
    return WorkerEventsController.ReportResponse.class;
  }
}
