/**
 * Agent runtimes: how a job admitted for an agent reaches it and comes back. There are three: pull
 * workers ({@code dispatch}: a worker holds a stream, is offered jobs and reports under their
 * lease), webhook agents ({@code webhook}) and A2A agents ({@code a2a}). The last two are push
 * runtimes, and the lifecycle they share lives here once: finding an agent's offerable jobs on the
 * dispatch signal and a poll, claiming them under a lease as a worker would, renewing it, reporting
 * as a worker does, retrying by one {@link io.agentteams.scheduler.runtime.domain.RetryPolicy},
 * leaving an unknown outcome for reconciliation, disconnecting a team whose agent refuses us, the
 * in-flight bound, the failure meters and the settings' shape ({@link
 * io.agentteams.scheduler.runtime.domain.RuntimeSettings}). The catalog of how agents run ({@code
 * persistence.PushAgentStore}, fed by {@code messaging}) is shared too.
 *
 * <p>Each push runtime is an adapter that only speaks its wire ({@link
 * io.agentteams.scheduler.runtime.application.RuntimeAdapter}): it sends a claimed job and maps the
 * agent's answers to reports through the {@link
 * io.agentteams.scheduler.runtime.application.LeasedJob} it is handed. Runtimes never import each
 * other; what they share lives here.
 *
 * <p>Adding a fourth runtime is one adapter and its tests: a package beside {@code webhook} and
 * {@code a2a} with its wire client, a {@code @Component} implementing {@code RuntimeAdapter} (its
 * {@code RuntimeProfile} names the catalog's runtime kind, its lease holder, its meters and its
 * housekeeping loop; its properties record under {@code agentteams.scheduler.<kind>} hands over a
 * {@code RuntimeSettings}), and a subclass of the shared contract test ({@code
 * RuntimeContractTest}) that drives a test peer of the new wire. The dispatcher picks the bean up.
 */
@NullMarked
package io.agentteams.scheduler.runtime;

import org.jspecify.annotations.NullMarked;
