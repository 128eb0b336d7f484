/** The webhook runtime's rules: signatures, retry back-off and what each answer means. */
@NullMarked
package io.agentteams.scheduler.webhook.domain;

import org.jspecify.annotations.NullMarked;
