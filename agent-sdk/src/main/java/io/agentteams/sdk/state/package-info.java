/** A team's public state: objectives, plans, findings, questions and requirements, revisioned. */
@NullMarked
package io.agentteams.sdk.state;

import org.jspecify.annotations.NullMarked;
