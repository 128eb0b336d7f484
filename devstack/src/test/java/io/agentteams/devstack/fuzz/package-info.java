/**
 * Fuzzing of every public endpoint: requests generated from the API description with inputs of
 * every awkward shape, each answered with a 4xx Problem Details (never a 5xx) and nothing written
 * when refused.
 */
package io.agentteams.devstack.fuzz;
