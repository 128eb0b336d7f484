CREATE TABLE team (
    id         uuid        PRIMARY KEY,
    owner_id   text        NOT NULL,
    name       text        NOT NULL,
    goal       text        NOT NULL,
    status     text        NOT NULL,
    revision   bigint      NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE INDEX team_owner ON team (owner_id, created_at);

CREATE TABLE team_member (
    team_id         uuid    NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    name            text    NOT NULL,
    agent_id        text    NOT NULL,
    lead            boolean NOT NULL,
    conversation_id text    NOT NULL UNIQUE,
    position        integer NOT NULL,
    PRIMARY KEY (team_id, name)
);
