-- How each owner's agents run, as team-service publishes it (AgentRuntimeChanged): the webhook
-- runtime pushes an agent's jobs to its endpoint, signed with its secrets. version orders changes.
CREATE TABLE push_agent (
    owner_id             text        NOT NULL,
    agent_id             text        NOT NULL,
    runtime_kind         text        NOT NULL,
    endpoint             text,
    secret               text,
    previous_secret      text,
    previous_valid_until timestamptz,
    version              bigint      NOT NULL,
    PRIMARY KEY (owner_id, agent_id)
);

CREATE INDEX push_agent_by_kind ON push_agent (runtime_kind) WHERE runtime_kind <> 'pull';

-- One push message per admission of a job: its idempotency key (the webhook-id every attempt and
-- every reconciliation of it carries), how many attempts were made, and how the last one ended.
-- An attempt is counted here, and committed, before its request leaves.
CREATE TABLE push_delivery (
    job_id          uuid        NOT NULL,
    message_id      text        NOT NULL,
    attempts        int         NOT NULL,
    last_attempt_at timestamptz NOT NULL,
    last_outcome    text,
    PRIMARY KEY (job_id, message_id)
);
