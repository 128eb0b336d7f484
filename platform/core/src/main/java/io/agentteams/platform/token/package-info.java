/**
 * The one place signed tokens (JWS-signed JWTs) are minted and verified: algorithm, key ids,
 * issuer, audiences, expiry and the revocation check; the kinds of token the system uses (internal,
 * job, edge, console cookies) say only which keys, claims and audience are theirs.
 */
@NullMarked
package io.agentteams.platform.token;

import org.jspecify.annotations.NullMarked;
