/** Reference agents built on the SDK: scripted team members and a chat-completions agent. */
@NullMarked
package io.agentteams.agents;

import org.jspecify.annotations.NullMarked;
