package io.agentteams.devstack.fault;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * How long a workload took to work again after each fault: for every kind of operation it does
 * (each a signal: the completion of its first success begun after a moment), the time from the
 * fault to that completion; the slowest signal is the fault's recovery time. A signal whose
 * workload did nothing more after the fault (it had finished) does not count for that fault.
 */
final class Recovery {

  /**
   * One kind of operation.
   *
   * @param name what it is, for messages
   * @param firstOkAfter the completion of its first success begun at or after a moment, or {@link
   *     Long#MAX_VALUE}
   * @param activeAfter whether its workload did anything at or after a moment
   */
  record Signal(String name, LongUnaryOperator firstOkAfter, LongPredicate activeAfter) {

    static <V> Signal of(String name, History<V> history, String type) {
      return new Signal(
          name,
          t -> history.firstOkAfter(type, t),
          t -> history.ops().stream().anyMatch(op -> op.invokedNanos() >= t));
    }
  }

  private Recovery() {}

  /**
   * The longest recovery over the faults, in milliseconds; -1 when a signal never came after some
   * fault; 0 without faults.
   */
  static long longest(List<FaultStack.Fault> faults, List<Signal> signals) {
    long longest = 0;
    for (FaultStack.Fault fault : faults) {
      for (Signal signal : signals) {
        if (!signal.activeAfter().test(fault.injectedNanos())) {
          continue;
        }
        long at = signal.firstOkAfter().applyAsLong(fault.injectedNanos());
        if (at == Long.MAX_VALUE) {
          return -1;
        }
        longest = Math.max(longest, TimeUnit.NANOSECONDS.toMillis(at - fault.injectedNanos()));
      }
    }
    return longest;
  }

  /** Whether every active signal has come since the moment. */
  static boolean recovered(long since, List<Signal> signals) {
    return signals.stream()
        .filter(s -> s.activeAfter().test(since))
        .allMatch(s -> s.firstOkAfter().applyAsLong(since) != Long.MAX_VALUE);
  }
}
