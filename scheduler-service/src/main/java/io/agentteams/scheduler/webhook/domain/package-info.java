/** The webhook runtime's rules: signatures and what each answer means. */
@NullMarked
package io.agentteams.scheduler.webhook.domain;

import org.jspecify.annotations.NullMarked;
