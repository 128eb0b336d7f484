/** Text checks in plain Java: size bounds and characters Postgres cannot store. */
@NullMarked
package io.agentteams.team.text.domain;

import org.jspecify.annotations.NullMarked;
