-- Wake a relay on commit only when no relay is draining already.
--
-- A notifying transaction holds a database-wide lock while it commits, so under load a NOTIFY per
-- write serialises every writer's commit. A relay that is draining polls on its own and needs no
-- notification; only an idle relay does. Relays advertise here whether they are idle.
--
-- Race: a writer that saw "busy" must not commit after the relay that goes idle has looked for the
-- last time. So a writer holds a shared advisory lock from its check to its commit, and a relay
-- going idle sets the flag under the same lock taken exclusively: that waits for every writer that
-- saw "busy" to commit, and its next look sees their rows; writers after it see "idle" and notify.
-- A relay that dies while busy leaves the flag at "busy": the other relays' polling finds the rows
-- and they set it again when they go idle.
CREATE TABLE platform.outbox_relay_state (
    singleton   boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    relays_idle boolean     NOT NULL DEFAULT true,
    changed_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO platform.outbox_relay_state DEFAULT VALUES;

-- The flag is read with a fresh snapshot only under READ COMMITTED; a writer in a stricter
-- isolation level could see a stale "busy", so it always notifies.
CREATE OR REPLACE FUNCTION platform.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM pg_notify('agentteams_outbox', '');
        RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock_shared(x'0A7E0002'::int, 0);
    IF (SELECT relays_idle FROM platform.outbox_relay_state) THEN
        PERFORM pg_notify('agentteams_outbox', '');
    END IF;
    RETURN NULL;
END
$$;
