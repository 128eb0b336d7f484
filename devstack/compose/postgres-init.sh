#!/bin/sh
# One database per service, owned by the migrations' role (POSTGRES_USER); the services run as
# "agentteams", which the migrations grant row access only. No service reads another's tables.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres <<SQL
CREATE ROLE agentteams LOGIN PASSWORD '${AGENTTEAMS_RUNTIME_PASSWORD}';
CREATE DATABASE team;
CREATE DATABASE mailbox;
CREATE DATABASE taskboard;
CREATE DATABASE scheduler;
SQL
