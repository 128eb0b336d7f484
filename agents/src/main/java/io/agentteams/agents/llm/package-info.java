/**
 * An agent that thinks with any server speaking the OpenAI-compatible chat-completions API (a local
 * Ollama or vLLM, or a hosted one): the member tools are its tools, and everything from the team
 * reaches the model as user or tool content with its provenance, never as instructions.
 */
@NullMarked
package io.agentteams.agents.llm;

import org.jspecify.annotations.NullMarked;
