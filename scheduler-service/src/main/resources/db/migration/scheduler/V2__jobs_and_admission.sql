-- Jobs, their chains and quotas, the admission slots and the owner rotation.

-- Queue order: a job takes a position when it is accepted and a new one when an answer queues it
-- again, so answers wait for a slot like new work.
CREATE SEQUENCE job_queue_position;

CREATE TABLE job (
    id                        uuid        PRIMARY KEY,
    -- creation order: the first unfinished job of a conversation (lowest seq) holds its head
    seq                       bigserial   NOT NULL UNIQUE,
    team_id                   uuid        NOT NULL,
    owner_id                  text        NOT NULL,
    member                    text        NOT NULL,
    agent_id                  text        NOT NULL,
    conversation_id           text        NOT NULL,
    kind                      text        NOT NULL CHECK (kind IN ('request', 'handoff', 'receipt')),
    requester                 text        NOT NULL,
    requester_agent_id        text,
    requester_conversation_id text,
    parent_job_id             uuid,
    chain_id                  uuid        NOT NULL,
    input                     text        NOT NULL,
    idempotency_scope         text,
    idempotency_key           text,
    state                     text        NOT NULL CHECK (state IN ('queued', 'admitted', 'running',
                                  'waiting_input', 'unknown', 'completed', 'failed', 'cancelled')),
    revision                  bigint      NOT NULL,
    queue_position            bigint      NOT NULL,
    resume                    boolean     NOT NULL DEFAULT false,
    question_kind             text,
    question                  text,
    answer_kind               text,
    answer                    text,
    lease_token               text,
    lease_expires_at          timestamptz,
    lease_ttl_ms              bigint,
    reoffer_due               boolean     NOT NULL DEFAULT false,
    offers                    integer     NOT NULL DEFAULT 0,
    admissions                integer     NOT NULL DEFAULT 0,
    admitted_by               text,
    run_id                    text,
    result                    text,
    result_truncated          boolean     NOT NULL DEFAULT false,
    error                     text,
    tokens                    bigint      NOT NULL DEFAULT 0,
    cost_units                bigint      NOT NULL DEFAULT 0,
    receipt_job_id            uuid,
    receipt_note              text,
    created_at                timestamptz NOT NULL,
    queued_at                 timestamptz NOT NULL,
    admitted_at               timestamptz,
    started_at                timestamptz,
    finished_at               timestamptz,
    unknown_since             timestamptz,
    updated_at                timestamptz NOT NULL
);

-- Conversation heads: the admission loop reads the first unfinished job of every conversation.
CREATE INDEX job_unfinished_by_conversation ON job (conversation_id, seq)
    WHERE state NOT IN ('completed', 'failed', 'cancelled');
-- What a worker's stream claims: admitted and not yet offered, or due a reconciliation offer.
CREATE INDEX job_offerable ON job (owner_id, agent_id, seq)
    WHERE (state = 'admitted' AND lease_token IS NULL) OR (state = 'unknown' AND reoffer_due);
CREATE INDEX job_lease_expiry ON job (lease_expires_at)
    WHERE state IN ('admitted', 'running', 'unknown') AND lease_expires_at IS NOT NULL;
CREATE INDEX job_unknown_since ON job (unknown_since) WHERE state = 'unknown';
CREATE INDEX job_queued_by_owner ON job (owner_id) WHERE state = 'queued';
CREATE INDEX job_team ON job (team_id, seq);
CREATE INDEX job_parent ON job (parent_job_id) WHERE parent_job_id IS NOT NULL;
CREATE INDEX job_request_key ON job (team_id, idempotency_scope, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX job_admitted_at ON job (admitted_at) WHERE admitted_at IS NOT NULL;

-- A client's idempotency key and the fingerprint of the body it first came with.
CREATE TABLE request_key (
    team_id     uuid        NOT NULL,
    scope       text        NOT NULL,
    key         text        NOT NULL,
    fingerprint text        NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (team_id, scope, key)
);

-- Per-team counts; its row lock serialises the team's submissions so the limits stay true.
CREATE TABLE team_quota (
    team_id  uuid    PRIMARY KEY,
    owner_id text    NOT NULL,
    requests integer NOT NULL DEFAULT 0,
    receipts integer NOT NULL DEFAULT 0
);

CREATE TABLE chain (
    chain_id   uuid    PRIMARY KEY,
    team_id    uuid    NOT NULL,
    requests   integer NOT NULL DEFAULT 0,
    tokens     bigint  NOT NULL DEFAULT 0,
    cost_units bigint  NOT NULL DEFAULT 0
);

CREATE TABLE owner_usage (
    owner_id   text   PRIMARY KEY,
    tokens     bigint NOT NULL DEFAULT 0,
    cost_units bigint NOT NULL DEFAULT 0
);

-- One row: the global capacity and the owner rotation. Its row lock serialises admission passes
-- across every replica.
CREATE TABLE admission_control (
    id             smallint    PRIMARY KEY CHECK (id = 1),
    capacity       integer     NOT NULL CHECK (capacity >= 1),
    rotation       text[]      NOT NULL DEFAULT '{}',
    served_in_turn integer     NOT NULL DEFAULT 0,
    passes         bigint      NOT NULL DEFAULT 0,
    updated_at     timestamptz
);

INSERT INTO admission_control (id, capacity) VALUES (1, 8);

-- The slots themselves: a job holds one row while admitted, running or unknown. There are only as
-- many rows as slots, so no bug elsewhere can make more jobs active than the capacity.
CREATE TABLE admission_slot (
    slot_no    integer     PRIMARY KEY,
    job_id     uuid        UNIQUE,
    held_since timestamptz
);

INSERT INTO admission_slot (slot_no) SELECT generate_series(0, 7);

-- Wake every replica's admission loop when work may have become admissible: a new job, an answer,
-- a released slot or a freed conversation head. Polling remains the safety net.
CREATE FUNCTION notify_admission() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('agentteams_admission', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER job_inserted_notify AFTER INSERT ON job
    FOR EACH STATEMENT EXECUTE FUNCTION notify_admission();

CREATE TRIGGER job_state_notify AFTER UPDATE OF state ON job
    FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state
          AND NEW.state IN ('queued', 'waiting_input', 'completed', 'failed', 'cancelled'))
    EXECUTE FUNCTION notify_admission();

-- Wake the streams of the job's agent, on whichever replica they are connected, when a job becomes
-- offerable: admitted without a lease, or due a reconciliation offer.
CREATE FUNCTION notify_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('agentteams_dispatch', NEW.owner_id || chr(31) || NEW.agent_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER job_offerable_notify AFTER UPDATE ON job
    FOR EACH ROW
    WHEN ((NEW.state = 'admitted' AND NEW.lease_token IS NULL
              AND (OLD.state IS DISTINCT FROM 'admitted' OR OLD.lease_token IS NOT NULL))
          OR (NEW.state = 'unknown' AND NEW.reoffer_due AND NOT OLD.reoffer_due))
    EXECUTE FUNCTION notify_dispatch();
