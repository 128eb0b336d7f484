-- A service's local copy of team rosters, built from team events (never read from team-service's tables).
CREATE TABLE platform.roster_team (
    team_id    uuid        PRIMARY KEY,
    owner_id   text        NOT NULL,
    status     text        NOT NULL,
    revision   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX roster_team_owner ON platform.roster_team (owner_id);

CREATE TABLE platform.roster_member (
    team_id         uuid    NOT NULL REFERENCES platform.roster_team (team_id) ON DELETE CASCADE,
    name            text    NOT NULL,
    agent_id        text    NOT NULL,
    lead            boolean NOT NULL,
    conversation_id text    NOT NULL,
    PRIMARY KEY (team_id, name)
);
