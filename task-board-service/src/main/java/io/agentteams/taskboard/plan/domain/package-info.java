/** Plan normalisation and the plan's approval, in plain Java. */
@NullMarked
package io.agentteams.taskboard.plan.domain;

import org.jspecify.annotations.NullMarked;
