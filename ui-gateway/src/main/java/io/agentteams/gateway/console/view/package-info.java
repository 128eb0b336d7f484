/**
 * What the console shows, as read from the public API: teams, jobs, tasks, state entries, messages
 * and agents, with the small rules the pages need (member states, write-scope overlaps, text
 * measures). Untrusted text stays plain data here; the templates render it as text.
 */
@NullMarked
package io.agentteams.gateway.console.view;

import org.jspecify.annotations.NullMarked;
