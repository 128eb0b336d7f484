/** The run command's stack started, refused and stopped as its users do it. */
package io.agentteams.devstack.lifecycle;
