-- Webhook secrets are kept encrypted (a compact JWE per column, with the scheduler's own key from
-- configuration, not in the database). secrets_key_id names the key the row's ciphertexts are
-- under, so keys can rotate; NULL with a secret marks a row written before encryption, still in
-- plaintext, which the scheduler encrypts at start and on every upgrade round.
ALTER TABLE push_agent ADD COLUMN secrets_key_id text;

CREATE INDEX push_agent_by_secrets_key ON push_agent (secrets_key_id) WHERE secret IS NOT NULL;
