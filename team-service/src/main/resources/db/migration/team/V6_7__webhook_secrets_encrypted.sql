-- Webhook secrets are kept encrypted (a compact JWE per column, with a key from configuration that
-- is not in the database). secrets_key_id names the key the row's ciphertexts are under, so keys
-- can rotate; NULL marks a row written before encryption, still in plaintext, which team-service
-- encrypts (and publishes sealed again) at start and on every upgrade round.
ALTER TABLE agent_webhook_secret ADD COLUMN secrets_key_id text;

CREATE INDEX agent_webhook_secret_by_key ON agent_webhook_secret (secrets_key_id);
