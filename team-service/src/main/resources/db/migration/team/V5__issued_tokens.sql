-- The registry of tokens the gateway handed to owners' agents (worker tokens) and members (member
-- tokens): each recorded before it is handed out, so an owner can list and revoke them. A row is
-- kept until a day after its token expired (then nothing can present it any more).
CREATE TABLE issued_token (
    id          uuid        PRIMARY KEY,
    owner_id    text        NOT NULL,
    kind        text        NOT NULL,
    agent_id    text        COLLATE "C",
    team_id     uuid,
    member      text,
    issued_at   timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    CHECK (expires_at > issued_at)
);

CREATE INDEX issued_token_owner ON issued_token (owner_id, expires_at);
CREATE INDEX issued_token_agent ON issued_token (owner_id, agent_id) WHERE agent_id IS NOT NULL;
CREATE INDEX issued_token_member ON issued_token (team_id, member) WHERE team_id IS NOT NULL;
