-- The team context a run's task inputs carry, kept from the team's and the mailbox's events (the
-- scheduler never asks another service for it): each team's goal, its public state entries as
-- last published, and its most recent messages (pruned to a bounded number per team).
CREATE TABLE run_team_goal (
    team_id uuid PRIMARY KEY,
    goal    text NOT NULL
);

CREATE TABLE run_team_state (
    team_id    uuid    NOT NULL,
    entry_id   bigint  NOT NULL,
    kind       text    NOT NULL,
    title      text    NOT NULL,
    content    text    NOT NULL,
    status     text    NOT NULL,
    revision   bigint  NOT NULL,
    updated_at text    NOT NULL,
    PRIMARY KEY (team_id, entry_id)
);

CREATE TABLE run_team_message (
    team_id  uuid   NOT NULL,
    sequence bigint NOT NULL,
    sender   text   NOT NULL,
    text     text   NOT NULL,
    sent_at  text   NOT NULL,
    PRIMARY KEY (team_id, sequence)
);
