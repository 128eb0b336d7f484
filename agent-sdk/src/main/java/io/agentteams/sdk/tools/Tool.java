package io.agentteams.sdk.tools;

import tools.jackson.databind.JsonNode;

/**
 * A member tool as the gateway describes it: one REST call, and JSON Schema 2020-12 documents for
 * what it takes and returns.
 *
 * @param name e.g. {@code claim_task}
 * @param description what it does
 * @param method the HTTP method of its call
 * @param path its path, with {@code {team_id}}-style placeholders filled from the input
 * @param inputSchema the schema of its input
 * @param resultSchema the schema of its result
 */
public record Tool(
    String name,
    String description,
    String method,
    String path,
    JsonNode inputSchema,
    JsonNode resultSchema) {}
