-- Schedule-to-start: an admitted job that no worker took within the offer time-out gives its slot
-- back and waits as 'waiting_worker', keeping its conversation's head and its queue position, until
-- a worker of its agent can take it; then it queues again where it was.
ALTER TABLE job DROP CONSTRAINT job_state_check;
ALTER TABLE job ADD CONSTRAINT job_state_check CHECK (state IN ('queued', 'admitted', 'running',
    'waiting_input', 'waiting_worker', 'unknown', 'completed', 'failed', 'cancelled'));

-- The worker that holds the current lease (the worker id its stream gave, or one the stream made
-- up): a worker that asked for at most N jobs is offered no more while N of its leases are live,
-- and a reconciliation offer names the worker whose lease lapsed.
ALTER TABLE job ADD COLUMN lease_holder text;

CREATE INDEX job_leases_by_holder ON job (owner_id, agent_id, lease_holder)
    WHERE state IN ('admitted', 'running', 'unknown') AND lease_token IS NOT NULL;
-- What the offer time-out looks at: admitted jobs no runtime has taken yet (at most one per slot).
CREATE INDEX job_untaken ON job (admitted_at) WHERE state = 'admitted' AND lease_token IS NULL;
CREATE INDEX job_waiting_worker ON job (owner_id, agent_id, queue_position)
    WHERE state = 'waiting_worker';

-- A job that gives its slot back while it waits for a worker wakes the admission loop too.
DROP TRIGGER job_state_notify ON job;
CREATE TRIGGER job_state_notify AFTER UPDATE OF state ON job
    FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state
          AND NEW.state IN ('queued', 'waiting_input', 'waiting_worker', 'completed', 'failed',
                            'cancelled'))
    EXECUTE FUNCTION notify_admission();

-- A leased job that left its slot frees room in its worker: wake the agent's streams, so a worker
-- that was at its limit is offered its next job at once rather than at the next poll.
CREATE TRIGGER job_lease_ended_notify AFTER UPDATE OF state ON job
    FOR EACH ROW
    WHEN (OLD.state IN ('admitted', 'running', 'unknown')
          AND NEW.state NOT IN ('admitted', 'running', 'unknown')
          AND OLD.lease_token IS NOT NULL)
    EXECUTE FUNCTION notify_dispatch();
