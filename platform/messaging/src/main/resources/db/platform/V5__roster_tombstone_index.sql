-- The tombstone purge's question: which deleted teams' tombstones are older than the retention?
CREATE INDEX roster_team_tombstones ON platform.roster_team (updated_at) WHERE status = 'deleted';
