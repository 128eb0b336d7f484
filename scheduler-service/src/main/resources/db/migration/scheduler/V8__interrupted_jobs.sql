-- Lead controls: a job the team's lead (or its owner) interrupts ends 'interrupted'. Like the other
-- ended states it holds no slot and no conversation head, so every partial index and trigger that
-- names the ended states names it too.
ALTER TABLE job DROP CONSTRAINT job_state_check;
ALTER TABLE job ADD CONSTRAINT job_state_check CHECK (state IN ('queued', 'admitted', 'running',
    'waiting_input', 'waiting_worker', 'unknown', 'completed', 'failed', 'cancelled',
    'interrupted'));

DROP INDEX job_unfinished_by_conversation;
CREATE INDEX job_unfinished_by_conversation ON job (conversation_id, seq)
    WHERE state NOT IN ('completed', 'failed', 'cancelled', 'interrupted');

-- An interrupted job frees its slot and its conversation's head: wake the admission loops.
DROP TRIGGER job_state_notify ON job;
CREATE TRIGGER job_state_notify AFTER UPDATE OF state ON job
    FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state
          AND NEW.state IN ('queued', 'waiting_input', 'waiting_worker', 'completed', 'failed',
                            'cancelled', 'interrupted'))
    EXECUTE FUNCTION notify_admission();

-- Tell the stream of the worker that holds the job's lease, on whichever replica it is connected,
-- to stop the turn: owner, agent, lease holder and job, separated by the unit separator.
CREATE FUNCTION notify_interrupt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('agentteams_interrupt',
                      NEW.owner_id || chr(31) || NEW.agent_id || chr(31)
                      || coalesce(NEW.lease_holder, '') || chr(31) || NEW.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER job_interrupted_notify AFTER UPDATE OF state ON job
    FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM 'interrupted' AND NEW.state = 'interrupted')
    EXECUTE FUNCTION notify_interrupt();
