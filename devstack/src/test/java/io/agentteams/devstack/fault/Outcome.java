package io.agentteams.devstack.fault;

/** What a client learned of an operation, as Jepsen records it. */
public enum Outcome {
  /** It happened: the system said so. */
  OK,
  /** It did not happen: the system said so (a 4xx). */
  FAIL,
  /** Unknown: no answer, a cut connection or a 5xx; it may or may not have happened. */
  INFO
}
