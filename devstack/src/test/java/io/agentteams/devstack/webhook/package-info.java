/** End-to-end tests of the webhook runtime against a webhook agent served by the test. */
@NullMarked
package io.agentteams.devstack.webhook;

import org.jspecify.annotations.NullMarked;
