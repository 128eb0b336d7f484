/** Admission state in Postgres: the control row, the slot rows and the candidate query. */
@NullMarked
package io.agentteams.scheduler.admission.persistence;

import org.jspecify.annotations.NullMarked;
