-- Team runs: an objective planned by one member, dispatched in rounds, synthesised by one member.

CREATE TABLE team_run (
    id                       uuid        PRIMARY KEY,
    team_id                  uuid        NOT NULL,
    owner_id                 text        NOT NULL,
    objective                text        NOT NULL,
    planner                  text        NOT NULL,
    synthesiser              text        NOT NULL,
    max_rounds               integer     NOT NULL CHECK (max_rounds >= 1),
    concurrency              integer     NOT NULL CHECK (concurrency >= 1),
    continue_on_member_error boolean     NOT NULL,
    require_plan_approval    boolean     NOT NULL,
    on_unreadable_plan       text        NOT NULL CHECK (on_unreadable_plan IN ('fail', 'fallback')),
    state                    text        NOT NULL CHECK (state IN ('planning', 'awaiting_approval',
                                 'running', 'synthesising', 'completed', 'failed', 'cancelled')),
    round                    integer     NOT NULL DEFAULT 0,
    plan_fallback            boolean     NOT NULL DEFAULT false,
    planner_job_id           uuid,
    synthesis_job_id         uuid,
    result                   text,
    reason                   text,
    sequence                 bigint      NOT NULL,
    idempotency_key          text,
    created_at               timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL,
    finished_at              timestamptz
);

CREATE INDEX team_run_team ON team_run (team_id, created_at DESC, id);
CREATE UNIQUE INDEX team_run_key ON team_run (team_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX team_run_unfinished ON team_run (team_id)
    WHERE state NOT IN ('completed', 'failed', 'cancelled');

-- The plan's tasks as the run follows them, in the planner's order.
CREATE TABLE run_task (
    run_id       uuid    NOT NULL REFERENCES team_run (id) ON DELETE CASCADE,
    key          text    NOT NULL,
    position     integer NOT NULL,
    assignee     text    NOT NULL,
    title        text    NOT NULL,
    instruction  text    NOT NULL,
    dependencies text[]  NOT NULL,
    state        text    NOT NULL CHECK (state IN ('pending', 'running', 'completed', 'failed',
                     'blocked', 'cancelled')),
    round        integer NOT NULL DEFAULT 0,
    job_id       uuid,
    result       text,
    error        text,
    PRIMARY KEY (run_id, key)
);

-- Every job a run created, at most one per slot (the plan, each task, the synthesis): a task is
-- dispatched once, whatever was restarted or redelivered.
CREATE TABLE run_job (
    job_id   uuid PRIMARY KEY,
    run_id   uuid NOT NULL REFERENCES team_run (id) ON DELETE CASCADE,
    role     text NOT NULL CHECK (role IN ('plan', 'task', 'synthesis')),
    task_key text,
    slot     text NOT NULL,
    UNIQUE (run_id, slot)
);

-- The run's timeline, as announced on the team's stream.
CREATE TABLE run_event (
    run_id   uuid        NOT NULL REFERENCES team_run (id) ON DELETE CASCADE,
    sequence bigint      NOT NULL,
    kind     text        NOT NULL,
    state    text        NOT NULL,
    round    integer     NOT NULL,
    task_key text,
    member   text,
    job_id   uuid,
    detail   text        NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (run_id, sequence)
);
