/**
 * The team page: roster, composer, activity feed with answers and cancel, task board with plan
 * approval, public state, history search and management, kept live over the team's event stream.
 */
@NullMarked
package io.agentteams.gateway.console.team;

import org.jspecify.annotations.NullMarked;
