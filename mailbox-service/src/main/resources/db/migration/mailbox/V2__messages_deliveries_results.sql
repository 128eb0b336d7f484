-- One row per team that has sent a message. Its row lock serialises a team's sends until they
-- commit, so message sequences, per-recipient sequences and outbox rows all follow one order.
CREATE TABLE team_mailbox (
    team_id          uuid   PRIMARY KEY,
    last_message_seq bigint NOT NULL
);

-- Every message, kept while the shared record retains it or a recipient has not read it.
CREATE TABLE message (
    id                uuid        PRIMARY KEY,
    team_id           uuid        NOT NULL,
    owner_id          text        NOT NULL,
    seq               bigint      NOT NULL,
    kind              text        NOT NULL CHECK (kind IN ('direct', 'broadcast')),
    sender_kind       text        NOT NULL CHECK (sender_kind IN ('member', 'owner', 'system')),
    sender            text        NOT NULL,
    system_kind       text,
    recipients        text[]      NOT NULL,
    job_id            text,
    conversation_id   text,
    client_message_id text,
    text              text        NOT NULL,
    sent_at           timestamptz NOT NULL,
    UNIQUE (team_id, seq)
);

CREATE UNIQUE INDEX message_client_message_id ON message (team_id, sender, client_message_id)
    WHERE client_message_id IS NOT NULL;

-- Per (team, member): the last inbox sequence allocated. Only sends touch it, under the team lock.
CREATE TABLE member_mailbox (
    team_id  uuid   NOT NULL,
    member   text   NOT NULL,
    last_seq bigint NOT NULL,
    PRIMARY KEY (team_id, member)
);

-- One copy of a message per recipient: queued by the send, delivered into the inbox by the
-- delivery consumer (always a whole prefix of the recipient's sequence), read by the member.
CREATE TABLE delivery (
    team_id      uuid        NOT NULL,
    recipient    text        NOT NULL,
    seq          bigint      NOT NULL,
    message_id   uuid        NOT NULL REFERENCES message (id) ON DELETE CASCADE,
    status       text        NOT NULL CHECK (status IN ('queued', 'delivered', 'read')),
    queued_at    timestamptz NOT NULL,
    delivered_at timestamptz,
    read_at      timestamptz,
    PRIMARY KEY (team_id, recipient, seq),
    UNIQUE (team_id, recipient, message_id)
);

CREATE INDEX delivery_queued ON delivery (queued_at) WHERE status = 'queued';
CREATE INDEX delivery_message ON delivery (message_id);

-- Per (team, member): every inbox message at or below read_seq was returned to the member once.
CREATE TABLE read_cursor (
    team_id    uuid        NOT NULL,
    member     text        NOT NULL,
    read_seq   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, member)
);

-- Finished jobs from scheduler events, kept independently of the message history's rotation.
CREATE TABLE result_record (
    job_id           text        PRIMARY KEY,
    team_id          uuid        NOT NULL,
    member           text        NOT NULL,
    requester        text        NOT NULL,
    status           text        NOT NULL,
    parent_job_id    text,
    conversation_id  text        NOT NULL,
    run_id           text,
    request          text        NOT NULL,
    answer           text        NOT NULL,
    answer_truncated boolean     NOT NULL,
    created_at       timestamptz NOT NULL,
    started_at       timestamptz,
    finished_at      timestamptz NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX result_record_team_created ON result_record (team_id, created_at DESC, job_id DESC);
