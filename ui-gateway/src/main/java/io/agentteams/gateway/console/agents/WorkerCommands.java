package io.agentteams.gateway.console.agents;

/**
 * The commands that run a worker for an agent, with the gateway's address, the agent id and a
 * freshly minted worker token filled in, shown once beside the token.
 *
 * @param python the repository's Python example (standard library only)
 * @param curl the job stream held with curl, to watch offers arrive
 * @param java a worker with the Java SDK, reading the token from the environment
 */
public record WorkerCommands(String python, String curl, String java) {

  /** The commands for the agent at the gateway, with the token. */
  public static WorkerCommands of(String gateway, String agentId, String token) {
    String python =
        "export AGENTTEAMS_WORKER_TOKEN='"
            + token
            + "'\npython3 examples/python-worker/worker.py --gateway "
            + gateway
            + " --agent "
            + agentId;
    String curl =
        "curl -N -H 'Authorization: Bearer "
            + token
            + "' "
            + gateway
            + "/api/v1/agents/"
            + agentId
            + "/jobs/stream";
    String java =
        "AgentTeamsClient client = AgentTeamsClient.builder(URI.create(\""
            + gateway
            + "\")).build();\n"
            + "try (AgentWorker worker = client\n"
            + "    .worker(\""
            + agentId
            + "\", TokenSupplier.of(System.getenv(\"AGENTTEAMS_WORKER_TOKEN\")),\n"
            + "        job -> JobResult.completed(\"done: \" + job.offer().input()))\n"
            + "    .start()) {\n"
            + "  worker.awaitStopped();\n"
            + "}";
    return new WorkerCommands(python, curl, java);
  }
}
