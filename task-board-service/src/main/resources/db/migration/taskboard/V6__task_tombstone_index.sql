-- The tombstone purge's question: which tombstones are older than the retention? Partial, so only
-- deletions write to it (claims and heartbeats never change deleted_at).
CREATE INDEX task_tombstones ON task (deleted_at) WHERE deleted_at IS NOT NULL;
