-- The A2A runtime's durable record of each job it sent to an A2A agent: the context (the member's
-- conversation), the agent's task once it named one, and the last message sent, recorded and
-- committed before its request leaves. A job whose outcome became unknown is reconciled from this
-- record (GetTask, or a search of the context's tasks for the message), never sent blindly again.
CREATE TABLE a2a_task (
    job_id        uuid        PRIMARY KEY,
    context_id    text        NOT NULL,
    task_id       text,
    message_id    text        NOT NULL,
    task_state    text,
    cancel_sent   boolean     NOT NULL DEFAULT false,
    updated_at    timestamptz NOT NULL
);

-- The cancel loop's question: which of the jobs cancelled here still have a task to cancel there.
CREATE INDEX a2a_task_to_cancel ON a2a_task (job_id)
    WHERE task_id IS NOT NULL AND NOT cancel_sent;
