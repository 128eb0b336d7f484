-- The A2A runtime's durable record of each job it sent to an A2A agent: the context (the member's
-- conversation), the agent's task once it named one, and the last message sent, recorded and
-- committed before its request leaves. A job whose outcome became unknown is reconciled from this
-- record (GetTask, or a search of the context's tasks for the message), never sent blindly again.
CREATE TABLE a2a_task (
    job_id        uuid        PRIMARY KEY,
    context_id    text        NOT NULL,
    task_id       text,
    message_id    text        NOT NULL,
    task_state    text,
    cancel_sent   boolean     NOT NULL DEFAULT false,
    updated_at    timestamptz NOT NULL
);

-- The cancel loop's question: which of the jobs cancelled here still have a task to cancel there.
CREATE INDEX a2a_task_to_cancel ON a2a_task (job_id)
    WHERE task_id IS NOT NULL AND NOT cancel_sent;

-- A2A push-notification configs of the owners' tasks (a team's A2A task is one of its jobs): where
-- the task's state changes are pushed, with the client's token (it keys the pushes' signatures).
CREATE TABLE a2a_push_config (
    job_id           uuid        NOT NULL,
    config_id        text        NOT NULL,
    owner_id         text        NOT NULL,
    url              text        NOT NULL,
    token            text,
    auth_scheme      text,
    auth_credentials text,
    created_at       timestamptz NOT NULL,
    PRIMARY KEY (job_id, config_id)
);

-- One push per config and job revision, written with the event that announced the revision and
-- sent (and retried) by whichever replica claims it first.
CREATE TABLE a2a_push_delivery (
    job_id          uuid        NOT NULL,
    config_id       text        NOT NULL,
    job_revision    bigint      NOT NULL,
    state           text        NOT NULL,
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    done            boolean     NOT NULL DEFAULT false,
    last_outcome    text,
    PRIMARY KEY (job_id, config_id, job_revision)
);

CREATE INDEX a2a_push_delivery_due ON a2a_push_delivery (next_attempt_at) WHERE NOT done;
