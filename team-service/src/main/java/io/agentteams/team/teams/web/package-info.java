/** The teams REST API. */
@NullMarked
package io.agentteams.team.teams.web;

import org.jspecify.annotations.NullMarked;
