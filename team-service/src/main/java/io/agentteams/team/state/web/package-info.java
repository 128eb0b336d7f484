/** The public state REST API. */
@NullMarked
package io.agentteams.team.state.web;

import org.jspecify.annotations.NullMarked;
