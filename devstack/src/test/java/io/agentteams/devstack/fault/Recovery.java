package io.agentteams.devstack.fault;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * How long a workload took to work again after each fault: for every kind of operation it does
 * (each a signal: the completion of its first success begun after a moment), the time from the
 * fault to that completion; the slowest signal is the fault's recovery time.
 */
final class Recovery {

  private Recovery() {}

  /**
   * The longest recovery over the faults, in milliseconds; -1 when a signal never came after some
   * fault; 0 without faults.
   */
  static long longest(List<FaultStack.Fault> faults, List<LongUnaryOperator> signals) {
    long longest = 0;
    for (FaultStack.Fault fault : faults) {
      for (LongUnaryOperator signal : signals) {
        long at = signal.applyAsLong(fault.injectedNanos());
        if (at == Long.MAX_VALUE) {
          return -1;
        }
        longest = Math.max(longest, TimeUnit.NANOSECONDS.toMillis(at - fault.injectedNanos()));
      }
    }
    return longest;
  }
}
