/**
 * The fault suite: workloads run through the public API of a stack whose parts are killed and
 * restarted, a record of every operation, and checkers that read the record and the final state and
 * report each anomaly with its evidence.
 */
package io.agentteams.devstack.fault;
