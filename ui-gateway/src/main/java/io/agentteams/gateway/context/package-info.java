/** The team context a member reads before it acts: goal, roster, public state, recent messages. */
@NullMarked
package io.agentteams.gateway.context;

import org.jspecify.annotations.NullMarked;
