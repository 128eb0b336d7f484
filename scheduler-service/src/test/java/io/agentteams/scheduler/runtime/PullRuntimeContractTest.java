package io.agentteams.scheduler.runtime;

import io.agentteams.scheduler.SchedulerServiceTest;
import io.agentteams.scheduler.support.TestWorker;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** Pull workers keep the runtime contract: a worker on its stream, reporting under its lease. */
@SchedulerServiceTest
class PullRuntimeContractTest extends RuntimeContractTest {

  private final Map<UUID, String> leases = new ConcurrentHashMap<>();
  private final Set<UUID> reconciled = ConcurrentHashMap.newKeySet();
  private TestWorker worker;

  @Override
  protected ContractAgent agent() {
    return new ContractAgent() {
      @Override
      public void register(String ownerId, String agentId) {
        teams.pullAgent(ownerId, agentId);
        worker = worker(ownerId, agentId, 5);
      }

      @Override
      public void actOn(UUID jobId) {
        Map<String, Object> offer = worker.nextOffer();
        String input = (String) offer.get("input");
        String lease = TestWorker.leaseToken(offer);
        leases.put(jobId, lease);
        switch (input) {
          case "complete" -> completed(jobId, lease, input);
          case "fail" ->
              worker.report(baseUrl(), jobId, "failed", lease, Map.of("error", "the agent broke"));
          case "lose" -> {
            // The worker runs the job, then goes away before its answer is sent.
            worker.report(baseUrl(), jobId, "started", lease, Map.of());
            worker.disconnect();
            worker.connect(baseUrl(), 30);
            Map<String, Object> again = worker.nextOffer();
            if (Boolean.TRUE.equals(again.get("reconcile"))) {
              reconciled.add(jobId);
            }
            completed(jobId, TestWorker.leaseToken(again), input);
          }
          default -> worker.report(baseUrl(), jobId, "started", lease, Map.of());
        }
      }

      @Override
      public boolean askedAgain(UUID jobId) {
        return reconciled.contains(jobId);
      }

      @Override
      public boolean toldOver(UUID jobId) {
        TestWorker.Reply heartbeat =
            worker.report(baseUrl(), jobId, "heartbeat", leases.get(jobId), Map.of());
        return heartbeat.status() == 409 && "job-finished".equals(heartbeat.code());
      }
    };
  }

  private void completed(UUID jobId, String lease, String input) {
    Map<String, Object> report = new HashMap<>();
    report.put("answer", "done: " + input);
    report.put("usage", Map.of("tokens", 42, "model", "peer-model"));
    worker.report(baseUrl(), jobId, "completed", lease, report);
  }
}
