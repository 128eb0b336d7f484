package io.agentteams.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class RequestBudgetsTest {

  @Test
  void aFloodOfNewKeysNeitherResetsABusyBucketNorGrowsTheTable() {
    // One request per 1,000 s after a burst of 5: nothing refills during the test.
    RequestBudgets budgets = new RequestBudgets(0.001, 5, 1_000);
    for (int i = 0; i < 5; i++) {
      assertThat(budgets.take("owner:steady").allowed()).isTrue();
    }
    assertThat(budgets.take("owner:steady").allowed()).isFalse();

    int admitted = 0;
    for (int i = 0; i < 100_000; i++) {
      if (budgets.take("owner:flood-" + i).allowed()) {
        admitted++;
      }
    }

    RequestBudgets.Decision steady = budgets.take("owner:steady");
    assertThat(steady.allowed()).as("the busy bucket was kept, not reset").isFalse();
    assertThat(steady.retryAfterSeconds()).isPositive();
    assertThat(budgets.size()).isLessThanOrEqualTo(1_000);
    assertThat(admitted).as("newcomers beyond the table's room wait").isLessThan(1_000);
  }

  @Test
  void aBucketIsDroppedOnceFullAgainSoIdleKeysTakeNoRoom() {
    RequestBudgets budgets = new RequestBudgets(1_000_000, 1, 10);
    for (int i = 0; i < 10; i++) {
      assertThat(budgets.take("k" + i).allowed()).isTrue();
    }
    // A million a second: every bucket is full again within microseconds and then forgotten.
    Awaitility.await().until(() -> budgets.take("another").allowed());
    Awaitility.await().until(() -> budgets.size() <= 1);
  }
}
