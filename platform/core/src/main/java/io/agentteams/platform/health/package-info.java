/** Health indicators for the infrastructure every service needs. */
@NullMarked
package io.agentteams.platform.health;

import org.jspecify.annotations.NullMarked;
