-- The agent catalog, the team lifecycle with its provisioning records, the public state, and the
-- projection of the scheduler's unfinished jobs.

-- Agents belong to an owner; ids are unique per owner. Names and ids sort bytewise ("C") so that
-- search pages are stable keyset pages. The folded columns hold Java's Unicode lowercase for
-- literal, case-insensitive search (Postgres' lower() depends on the database's locale).
CREATE TABLE agent (
    owner_id           text        NOT NULL,
    id                 text        COLLATE "C" NOT NULL,
    name               text        COLLATE "C" NOT NULL,
    description        text        NOT NULL,
    name_folded        text        NOT NULL,
    description_folded text        NOT NULL,
    runtime_kind       text        NOT NULL CHECK (runtime_kind IN ('pull', 'webhook', 'a2a')),
    endpoint           text,
    tool_groups        text[]      NOT NULL,
    revision           bigint      NOT NULL,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    PRIMARY KEY (owner_id, id)
);

CREATE INDEX agent_by_name ON agent (owner_id, name, id);

-- provisioning_due_at: when provisioning work of this team may next be claimed. A claim pushes it
-- one lease ahead and bumps the fence; a worker writes only while the fence is still its own.
ALTER TABLE team
    ADD COLUMN status_reason       text,
    ADD COLUMN provisioning_round  integer     NOT NULL DEFAULT 1,
    ADD COLUMN provisioning_fence  bigint      NOT NULL DEFAULT 0,
    ADD COLUMN provisioning_due_at timestamptz,
    ADD COLUMN state_revision      bigint      NOT NULL DEFAULT 0;

CREATE INDEX team_provisioning_due ON team (provisioning_due_at)
    WHERE provisioning_due_at IS NOT NULL;

-- The recorded binding: how the member's agent ran when the member was bound.
ALTER TABLE team_member
    ADD COLUMN runtime_kind text NOT NULL DEFAULT 'pull'
        CHECK (runtime_kind IN ('pull', 'webhook', 'a2a')),
    ADD COLUMN endpoint     text;

-- One provisioning record per member, written before anything is asked of a runtime.
CREATE TABLE member_provisioning (
    team_id     uuid        NOT NULL,
    member_name text        NOT NULL,
    round       integer     NOT NULL,
    status      text        NOT NULL CHECK (status IN ('pending', 'ensured', 'failed', 'abandoned')),
    outcome     text        CHECK (outcome IN ('allocated', 'created', 'existing')),
    attempts    integer     NOT NULL DEFAULT 0,
    last_error  text,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, member_name),
    FOREIGN KEY (team_id, member_name) REFERENCES team_member (team_id, name) ON DELETE CASCADE
);

-- Teams created before provisioning existed get their records, and the reconciler finishes them.
INSERT INTO member_provisioning (team_id, member_name, round, status)
SELECT m.team_id, m.name, 1, 'pending'
FROM team_member m JOIN team t ON t.id = m.team_id
WHERE t.status = 'provisioning';

UPDATE team SET provisioning_due_at = now() WHERE status = 'provisioning';

-- Public state entries; at most a few dozen per team, read and checked whole under the team's lock.
CREATE TABLE state_entry (
    team_id                 uuid        NOT NULL REFERENCES team (id) ON DELETE CASCADE,
    entry_id                bigint      NOT NULL,
    kind                    text        NOT NULL,
    title                   text        NOT NULL,
    content                 text        NOT NULL,
    status                  text        NOT NULL CHECK (status IN ('active', 'archived')),
    created_by              text        NOT NULL,
    created_at              timestamptz NOT NULL,
    updated_by              text        NOT NULL,
    updated_at              timestamptz NOT NULL,
    source_conversation_id  text        NOT NULL,
    source_job_id           text,
    revision                bigint      NOT NULL,
    request_id              text        NOT NULL,
    publish_fingerprint     text        NOT NULL,
    last_update_fingerprint text,
    PRIMARY KEY (team_id, entry_id),
    UNIQUE (team_id, created_by, request_id)
);

-- The scheduler's jobs as its events describe them; job_revision guards against stale events.
CREATE TABLE scheduler_job (
    job_id       text        PRIMARY KEY,
    team_id      uuid        NOT NULL,
    member       text        NOT NULL,
    state        text        NOT NULL,
    unfinished   boolean     NOT NULL,
    job_revision bigint      NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX scheduler_job_unfinished ON scheduler_job (team_id) WHERE unfinished;
