/** The public state aggregate and its rules, in plain Java. */
@NullMarked
package io.agentteams.team.state.domain;

import org.jspecify.annotations.NullMarked;
