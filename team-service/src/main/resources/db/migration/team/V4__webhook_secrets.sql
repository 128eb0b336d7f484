-- The secrets a webhook agent's pushes are signed with. After a rotation the previous secret stays
-- in use until previous_valid_until, so the agent can switch without refusing a push.
CREATE TABLE agent_webhook_secret (
    owner_id             text        NOT NULL,
    agent_id             text        COLLATE "C" NOT NULL,
    secret               text        NOT NULL,
    previous_secret      text,
    previous_valid_until timestamptz,
    PRIMARY KEY (owner_id, agent_id),
    FOREIGN KEY (owner_id, agent_id) REFERENCES agent (owner_id, id) ON DELETE CASCADE,
    CHECK ((previous_secret IS NULL) = (previous_valid_until IS NULL))
);

-- Raised by every change of how the agent runs (kind, endpoint, secrets); it orders the
-- AgentRuntimeChanged events the scheduler applies.
ALTER TABLE agent ADD COLUMN runtime_version bigint NOT NULL DEFAULT 0;
