/** The platform's own tables (outbox, processed events), migrated beside each service's schema. */
@NullMarked
package io.agentteams.platform.schema;

import org.jspecify.annotations.NullMarked;
