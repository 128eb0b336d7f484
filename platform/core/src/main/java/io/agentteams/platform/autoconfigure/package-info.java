/** Spring Boot auto-configuration that wires the platform into every service. */
@NullMarked
package io.agentteams.platform.autoconfigure;

import org.jspecify.annotations.NullMarked;
