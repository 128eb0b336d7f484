package io.agentteams.taskboard.task;

import io.agentteams.taskboard.task.application.BoardTransactions;
import io.agentteams.taskboard.task.application.ClaimSweeper;
import io.agentteams.taskboard.task.messaging.TaskEvents;
import io.agentteams.taskboard.task.persistence.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.reactive.TransactionalOperator;

/** Wires the claim sweeper, which every replica runs. */
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

  @Bean
  SmartLifecycle claimSweeperLifecycle(ClaimSweeper sweeper) {
    return new SmartLifecycle() {
      private volatile boolean running;

      @Override
      public void start() {
        sweeper.start();
        running = true;
      }

      @Override
      public void stop() {
        sweeper.close();
        running = false;
      }

      @Override
      public boolean isRunning() {
        return running;
      }
    };
  }
}
