package io.agentteams.taskboard.task;

import io.agentteams.platform.loop.PeriodicLoop;
import io.agentteams.platform.loop.PeriodicLoops;
import io.agentteams.taskboard.task.application.BoardTransactions;
import io.agentteams.taskboard.task.application.ClaimSweeper;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.reactive.TransactionalOperator;

/** Wires the claim sweeper and its loop, which every replica runs. */
@Configuration(proxyBeanMethods = false)
public class TaskBoardConfiguration {

  @Bean
  ClaimSweeper claimSweeper(
      TaskStore store,
      TaskEvents events,
      TransactionalOperator transactions,
      BoardTransactions boards,
      TaskBoardProperties properties,
      MeterRegistry meters) {
    return new ClaimSweeper(store, events, transactions, boards, properties, meters);
  }

  /** Recovers expired claims every {@code sweep-interval}. */
  @Bean
  PeriodicLoop claimSweepLoop(
      PeriodicLoops loops, ClaimSweeper sweeper, TaskBoardProperties properties) {
    return loops.named("claim-sweep").every(properties.sweepInterval()).running(sweeper::sweepOnce);
  }
}
