/**
 * Team access, decided in one place: which caller may act on which team, and as whom (owner, member
 * or lead, service), from the verified caller and the team's roster.
 */
@NullMarked
package io.agentteams.platform.access;

import org.jspecify.annotations.NullMarked;
