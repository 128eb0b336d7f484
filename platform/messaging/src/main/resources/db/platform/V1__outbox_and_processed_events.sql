-- The platform's own tables, in their own schema beside each service's tables.

-- Events waiting to be published, written in the same transaction as the change they describe.
CREATE TABLE platform.outbox (
    id              bigserial PRIMARY KEY,
    event_id        uuid        NOT NULL UNIQUE,
    topic           text        NOT NULL,
    message_key     text        NOT NULL,
    lane            smallint    NOT NULL,
    event_type      text        NOT NULL,
    payload         text        NOT NULL,
    traceparent     text,
    status          text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'PUBLISHED')),
    attempts        integer     NOT NULL DEFAULT 0,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz,
    published_at    timestamptz
);

CREATE INDEX outbox_pending_by_lane ON platform.outbox (lane, id) WHERE status = 'PENDING';
CREATE INDEX outbox_published_at ON platform.outbox (published_at) WHERE status = 'PUBLISHED';

-- A key always maps to the same lane; a relay claims a whole lane (FOR UPDATE SKIP LOCKED) so
-- that one relay at a time publishes a key's events, in order.
CREATE TABLE platform.outbox_lane (
    lane            smallint    PRIMARY KEY,
    retry_at        timestamptz NOT NULL DEFAULT '-infinity',
    last_claimed_at timestamptz NOT NULL DEFAULT '-infinity'
);

INSERT INTO platform.outbox_lane (lane) SELECT generate_series(0, 31);

-- Wakes relays on commit; polling remains the safety net.
CREATE FUNCTION platform.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('agentteams_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_notify AFTER INSERT ON platform.outbox
    FOR EACH STATEMENT EXECUTE FUNCTION platform.outbox_notify();

-- Events a consumer has applied; recorded in the same transaction as the effect.
CREATE TABLE platform.processed_event (
    consumer     text        NOT NULL,
    event_id     uuid        NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

CREATE INDEX processed_event_processed_at ON platform.processed_event (processed_at);
