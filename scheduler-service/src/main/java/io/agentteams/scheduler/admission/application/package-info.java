/** The admission loop every replica may run, and the admission metrics. */
@NullMarked
package io.agentteams.scheduler.admission.application;

import org.jspecify.annotations.NullMarked;
