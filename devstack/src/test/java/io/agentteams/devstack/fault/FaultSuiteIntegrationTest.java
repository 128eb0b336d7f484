package io.agentteams.devstack.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentteams.devstack.ServiceStack.Service;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's bounded subset, on the processes mode's stack (Kafka and every service in a JVM
 * of its own, two scheduler replicas): a {@code kill -9} of the mailbox during messages, one of a
 * scheduler replica during admission, each checked from the record of every operation and the final
 * state. The full suite is a separate command ({@code -Dfaults=all}, see the README).
 */
class FaultSuiteIntegrationTest {

  /**
   * Consumers' session time-out in this stack: far longer than a restart takes, so a restarted
   * consumer that rejoined before it ended did so as the dead member's static successor.
   */
  private static final Duration SESSION = Duration.ofSeconds(120);

  private static FaultStack stack;
  private static final Path records = Path.of("target", "faults", "bounded").toAbsolutePath();

  @BeforeAll
  static void startTheStack() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("agentteams.scheduler.admission.slots", 4);
    properties.put("spring.kafka.consumer.properties.session.timeout.ms", SESSION.toMillis());
    stack = FaultStack.start(records.resolve("stack"), Map.of(Service.SCHEDULER, 2), properties);
  }

  @AfterAll
  static void stopTheStack() {
    if (stack != null) {
      stack.close();
    }
  }

  /**
   * Also D3: readiness includes the consumers having joined their groups, and a dynamic member
   * would wait for the dead one's session (two minutes here) to end before it could join; the
   * restarted replica takes its static place at once, so it is ready as soon as it has started.
   */
  @Test
  void aMailboxKilledDuringMessagesRejoinsAtOnceAndLosesDuplicatesAndReordersNothing() {
    Row row =
        new MailboxKills("mailbox kill -9 during messages", 480, 1, 1, SESSION.minusSeconds(20))
            .run(stack, records);
    System.out.println(Row.HEADER + "\n" + row.line());
    assertThat(row.anomalies()).isEmpty();
    assertThat(row.faults()).isEqualTo(1);
    assertThat(row.recoveryMillis()).as("recovered after the kill").isNotNegative();
  }

  @Test
  void aSchedulerReplicaKilledDuringAdmissionAdmitsNothingTwiceAndNeverBeyondItsSlots() {
    Row row =
        new SchedulerKills("scheduler kill -9 during admission, 2 replicas", 6, 1)
            .run(stack, records);
    System.out.println(Row.HEADER + "\n" + row.line());
    assertThat(row.anomalies()).isEmpty();
    assertThat(row.faults()).isEqualTo(1);
    assertThat(row.recoveryMillis()).as("recovered after the kill").isNotNegative();
  }
}
