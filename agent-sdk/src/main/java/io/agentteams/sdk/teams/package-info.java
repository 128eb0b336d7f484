/** Teams: form, read, reconnect and delete them, and read a team's context. */
@NullMarked
package io.agentteams.sdk.teams;

import org.jspecify.annotations.NullMarked;
