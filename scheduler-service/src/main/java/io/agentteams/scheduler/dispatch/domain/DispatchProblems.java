package io.agentteams.scheduler.dispatch.domain;

import io.agentteams.platform.problem.DomainFailure;
import java.util.Map;

/** The named refusals of a runtime's report on a job. */
public final class DispatchProblems {

  private DispatchProblems() {}

  /** A report that is malformed or breaks a rule of the worker protocol. */
  public static DomainFailure invalidReport(String code, String detail) {
    return DomainFailure.invalid(code, detail);
  }

  /** Usage out of range. */
  public static DomainFailure invalidUsage(String detail) {
    return DomainFailure.invalid("invalid-usage", detail);
  }

  /** A negative amount of usage: a report is a total, never a refund; names the field. */
  public static DomainFailure negativeUsage(String field) {
    return DomainFailure.invalid(
        "invalid-usage", field + " cannot be negative", Map.of("field", field));
  }
}
