package io.agentteams.scheduler.runtime;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.A2aTestPeer;
import java.io.IOException;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A2A agents keep the runtime contract: sent a message, their task followed by GetTask. */
@SchedulerServiceTest
class A2aRuntimeContractTest extends RuntimeContractTest {

  private A2aTestPeer peer;

  @BeforeAll
  void startPeer() throws IOException {
    peer = new A2aTestPeer();
  }

  @AfterAll
  void stopPeer() {
    peer.close();
  }

  @Override
  protected ContractAgent agent() {
    return new ContractAgent() {
      @Override
      public void register(String ownerId, String agentId) {
        teams.runtimeAgent(ownerId, agentId, "a2a", peer.url(), null);
      }

      @Override
      public void actOn(UUID jobId) {
        // The agent acts on each message as it arrives.
      }

      @Override
      public boolean askedAgain(UUID jobId) {
        return peer.lookedUpAgain(jobId);
      }

      @Override
      public boolean toldOver(UUID jobId) {
        return peer.cancelled(jobId);
      }
    };
  }
}
