package io.agentteams.scheduler.runtime;

import static org.awaitility.Awaitility.await;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.TestWorker;
import io.agentteams.scheduler.support.WebhookPeer;
import java.io.IOException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Webhook agents keep the runtime contract: pushed, answering in the response or later. */
@SchedulerServiceTest
class WebhookRuntimeContractTest extends RuntimeContractTest {

  private WebhookPeer peer;
  private String ownerId;
  private String agentId;

  @BeforeAll
  void startPeer() throws IOException {
    peer = new WebhookPeer();
  }

  @AfterAll
  void stopPeer() {
    peer.close();
  }

  @Override
  protected ContractAgent agent() {
    return new ContractAgent() {
      @Override
      public void register(String owner, String agent) {
        ownerId = owner;
        agentId = agent;
        String secret = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);
        teams.runtimeAgent(owner, agent, "webhook", peer.url(), secret);
      }

      @Override
      public void actOn(UUID jobId) {
        // The agent acts on each push as it arrives.
      }

      @Override
      public boolean askedAgain(UUID jobId) {
        return peer.pushesOf(jobId).stream().anyMatch(WebhookPeer.Push::reconcile);
      }

      @Override
      public boolean toldOver(UUID jobId) {
        // An agent that took the job (202) learns of the cancel when it reports under its lease.
        await().atMost(Duration.ofSeconds(30)).until(() -> peer.lastPushOf(jobId).isPresent());
        String lease = peer.lastPushOf(jobId).orElseThrow().leaseToken();
        TestWorker.Reply heartbeat =
            new TestWorker(tokens, ownerId, agentId)
                .report(baseUrl(), jobId, "heartbeat", lease, Map.of());
        return heartbeat.status() == 409 && "job-finished".equals(heartbeat.code());
      }
    };
  }
}
