-- A job's place in its conversation. It is the job's creation order (seq), except for a request
-- sent with if_busy: interrupt, which takes the rank of the head it interrupted and so runs next,
-- ahead of requests queued earlier behind that head. Ties (only with the ended head) fall back to
-- seq. The first unfinished job by (conversation_rank, seq) holds the conversation's head.
ALTER TABLE job ADD COLUMN conversation_rank bigint;
UPDATE job SET conversation_rank = seq;
ALTER TABLE job ALTER COLUMN conversation_rank SET NOT NULL;

CREATE FUNCTION job_default_conversation_rank() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.conversation_rank := coalesce(NEW.conversation_rank, NEW.seq);
    RETURN NEW;
END
$$;

CREATE TRIGGER job_conversation_rank BEFORE INSERT ON job
    FOR EACH ROW EXECUTE FUNCTION job_default_conversation_rank();

DROP INDEX job_unfinished_by_conversation;
CREATE INDEX job_unfinished_by_conversation ON job (conversation_id, conversation_rank, seq)
    WHERE state NOT IN ('completed', 'failed', 'cancelled', 'interrupted');
