-- Which agents have a pull worker connected now: one row per open job stream, written by the
-- replica that holds the stream, renewed by it while the stream stays open and deleted when it
-- closes. A replica that dies cannot delete its rows: they lapse at expires_at and a sweep on any
-- replica removes them. Every replica reads the same rows, so presence never depends on which
-- replica a worker happens to be connected to.
CREATE TABLE worker_presence (
    stream_id    uuid        PRIMARY KEY,
    owner_id     text        NOT NULL,
    agent_id     text        NOT NULL,
    worker_id    text        NOT NULL,
    replica_id   text        NOT NULL,
    connected_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);

CREATE INDEX worker_presence_agent ON worker_presence (owner_id, agent_id, expires_at);
CREATE INDEX worker_presence_expiry ON worker_presence (expires_at);
