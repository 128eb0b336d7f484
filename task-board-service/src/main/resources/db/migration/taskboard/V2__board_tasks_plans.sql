-- One row per team that has a board: the task id counter (ids are allocated from it in the same
-- transaction as the insert, never reused) and the team's settings. Graph-changing transactions
-- lock this row first, so a team's statuses are always derived from one consistent graph.
CREATE TABLE board (
    team_id               uuid        PRIMARY KEY,
    owner_id              text        NOT NULL,
    next_task_id          bigint      NOT NULL CHECK (next_task_id >= 1),
    claim_timeout_seconds bigint      CHECK (claim_timeout_seconds > 0),
    settings_revision     bigint      NOT NULL,
    created_at            timestamptz NOT NULL
);

-- Tasks, live and tombstones. status is derived by the application and stored so that claims can
-- be guarded and boards listed without re-deriving.
CREATE TABLE task (
    team_id         uuid        NOT NULL REFERENCES board (team_id),
    id              bigint      NOT NULL CHECK (id >= 1),
    title           text        NOT NULL,
    description     text        NOT NULL,
    state           text        NOT NULL CHECK (state IN ('open', 'in_progress', 'completed', 'failed', 'cancelled')),
    status          text        NOT NULL CHECK (status IN ('awaiting_approval', 'ready', 'pending', 'blocked',
                                                           'in_progress', 'completed', 'failed', 'cancelled', 'deleted')),
    held            boolean     NOT NULL,
    blocked_reason  text,
    blocked_by      bigint,
    owner           text,
    dependencies    bigint[]    NOT NULL,
    write_scopes    text[]      NOT NULL,
    phase           text,
    percent         integer     NOT NULL CHECK (percent BETWEEN 0 AND 100),
    claimed_at      timestamptz,
    heartbeat_at    timestamptz,
    heartbeat_count integer     NOT NULL,
    result          text,
    error           text,
    plan_id         uuid,
    plan_key        text,
    created_by      text        NOT NULL,
    deleted_at      timestamptz,
    deleted_by      text,
    revision        bigint      NOT NULL CHECK (revision >= 1),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (team_id, id),
    CHECK ((status = 'deleted') = (deleted_at IS NOT NULL)),
    CHECK ((status = 'blocked') = (blocked_reason IS NOT NULL))
);

-- The sweeper's question: which claims have stopped heartbeating?
CREATE INDEX task_claims ON task (heartbeat_at) WHERE status = 'in_progress';
CREATE INDEX task_plan ON task (plan_id) WHERE plan_id IS NOT NULL;

CREATE TABLE plan (
    id          uuid        PRIMARY KEY,
    team_id     uuid        NOT NULL REFERENCES board (team_id),
    status      text        NOT NULL CHECK (status IN ('imported', 'awaiting_approval', 'approved')),
    revision    bigint      NOT NULL,
    imported_by text        NOT NULL,
    approved_by text,
    task_keys   text[]      NOT NULL,
    task_ids    bigint[]    NOT NULL,
    renamed_from   text[]   NOT NULL,
    renamed_to     text[]   NOT NULL,
    renamed_reason text[]   NOT NULL,
    generated   text[]      NOT NULL,
    created_at  timestamptz NOT NULL,
    approved_at timestamptz
);

CREATE INDEX plan_team ON plan (team_id, created_at);
