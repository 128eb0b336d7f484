/**
 * Deliberate breaches of the runtime rules ({@code RuntimeRules}), which {@code RuntimeRulesTest}
 * shows them failing on; never part of the service.
 */
@NullMarked
package io.agentteams.scheduler.archfixture;

import org.jspecify.annotations.NullMarked;
