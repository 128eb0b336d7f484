/** {@code /api/v1/tokens} for owners and the gateway's internal registration path. */
@NullMarked
package io.agentteams.team.tokens.web;

import org.jspecify.annotations.NullMarked;
